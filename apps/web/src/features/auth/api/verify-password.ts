import { api } from '../../../lib/api-client.ts';

export interface VerifyPasswordInput {
  email: string;
  code: string;
  password: string;
}

/** Sets a new password with the emailed code. */
export function verifyPassword(body: VerifyPasswordInput) {
  return api.post<{ message: string }>('/oauth-bff/v1/user/verify-password', body);
}
