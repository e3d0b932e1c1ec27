import type { ContactVerification } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export function verifyCode(email: string, code: string) {
  return api.post<ContactVerification>('/monitor-bff/monitor/verify-code', { channel: 'email', email, code });
}
