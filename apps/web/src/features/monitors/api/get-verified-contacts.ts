import type { VerifiedContact } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function getVerifiedContacts(signal?: AbortSignal) {
  return api.get<{ list: VerifiedContact[] }>(
    '/monitor-bff/monitor/verified-contacts',
    signal ? { signal } : {},
  );
}
