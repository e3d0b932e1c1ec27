import type { ContactVerification } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** Emails a 6-digit code to the address, to prove alerts may go there. */
export function sendCode(email: string) {
  return api.post<ContactVerification>('/monitor-bff/monitor/send-code', { channel: 'email', email });
}
