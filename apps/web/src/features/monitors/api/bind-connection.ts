import type { BindBody, BindResult } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/**
 * `bind`: either every query parameter the provider sent back to /oauth, or the key of a connection held
 * since an install that started on the provider's side.
 */
export function bindConnection(body: BindBody) {
  return api.post<BindResult>('/monitor-bff/monitor/bind', body);
}
