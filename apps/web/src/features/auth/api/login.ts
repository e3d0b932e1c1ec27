import type { LoginBody, Session } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** Email and password, or the OpenID provider's code and state. A wrong password answers 400 (toast shown). */
export function login(body: LoginBody) {
  return api.post<Session>('/oauth-bff/v1/user/login', body);
}
