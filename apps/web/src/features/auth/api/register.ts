import type { RegisterBody, Session } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function register(body: RegisterBody) {
  return api.post<Session>('/oauth-bff/v1/user/register', body);
}
