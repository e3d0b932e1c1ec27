import { api } from '../../../lib/api-client.ts';

export interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
}

/** For a signed-in user; a wrong old password answers 400 (toast shown), never 401. */
export function changePassword(body: ChangePasswordInput) {
  return api.put<{ message: string }>('/monitor-bff/v1/user/change-password', body);
}
