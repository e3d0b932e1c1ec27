import { api } from '../../../lib/api-client.ts';

/** Ends the session on the server; the caller clears the cookies whatever the answer. */
export function logout() {
  return api.post<null>('/monitor-bff/v1/user/logout');
}
