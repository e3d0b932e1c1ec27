import type { ContactVerification, VerifyCodeBody } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

/** Checks the code; a phone number proved by SMS or by call is verified for both channels. */
export function verifyCode(body: VerifyCodeBody) {
  return api.post<ContactVerification>('/monitor-bff/monitor/verify-code', body);
}
