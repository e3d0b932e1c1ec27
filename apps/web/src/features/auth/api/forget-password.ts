import { api } from '../../../lib/api-client.ts';

/** Emails a 6-digit reset code; the answer is the same whether or not the account exists. */
export function forgetPassword(email: string) {
  return api.post<{ message: string }>('/oauth-bff/v1/user/forget-password', { email });
}
