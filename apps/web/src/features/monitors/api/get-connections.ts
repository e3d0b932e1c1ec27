import type { Connection, Provider } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** The accounts the user connected (shops), with their status and how many monitors use each. */
export function getConnections(provider: Provider, signal?: AbortSignal) {
  return api.get<{ list: Connection[] }>('/monitor-bff/connections', {
    params: { provider },
    ...(signal ? { signal } : {}),
  });
}
