import type { Connection, Provider } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/**
 * The accounts the user connected (shops, Google and Facebook accounts) with their status and how many
 * monitors use each: of one provider, or of all without one.
 */
export function getConnections(provider?: Provider, signal?: AbortSignal) {
  return api.get<{ list: Connection[] }>('/monitor-bff/connections', {
    params: provider ? { provider } : {},
    ...(signal ? { signal } : {}),
  });
}
