import type { StripeSettings } from '../../config.ts';
import type { Store } from '../../db/store.ts';
import type { BillingWorker } from '../../jobs/job.ts';
import type { Clock } from '../../lib/clock.ts';
import { createStripeEventProcessor } from './stripe-events.ts';
import { createStripeGateway } from './stripe-gateway.ts';

/** The billing side of a worker: applies Stripe events. */
export function createBillingWorker(deps: {
  store: Store;
  clock: Clock;
  settings: StripeSettings;
  publicUrl: string;
}): BillingWorker {
  const gateway = createStripeGateway(deps.settings);
  return { events: createStripeEventProcessor({ ...deps, gateway }) };
}
