import type { UserInfo } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export interface OnboardingInput {
  industry: string;
  telPhone: string | null;
  contactEmail: string | null;
}

export function submitOnboarding(body: OnboardingInput) {
  return api.post<UserInfo>('/monitor-bff/onboarding/user-info', body);
}
