import type { billingPortalResponse } from '@vigil/contracts';
import { api } from '../../../lib/api-client.ts';

export type BillingPortal = (typeof billingPortalResponse)['_output']['data'];

/** A Stripe customer portal session (card, plan change, cancel, invoices): the browser then goes to `url`. */
export function openBillingPortal() {
  return api.post<BillingPortal>('/monitor-bff/subscription/portal');
}
