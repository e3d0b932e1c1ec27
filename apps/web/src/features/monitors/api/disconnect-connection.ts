import type { Connection } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** Forgets the connection's token; the monitors on it then report the connection lost. */
export function disconnectConnection(connectionId: string) {
  return api.delete<Connection>('/monitor-bff/connections', { params: { connectionId } });
}
