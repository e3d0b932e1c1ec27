import type { ContactVerification, SendCodeBody } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/**
 * Sends a 6-digit code that proves alerts may go to this contact: emailed to an address, or texted or read out
 * in a call to a phone number (in `languageCode`). An address already verified answers `verified: true`.
 */
export function sendCode(body: SendCodeBody) {
  return api.post<ContactVerification>('/monitor-bff/monitor/send-code', body);
}
