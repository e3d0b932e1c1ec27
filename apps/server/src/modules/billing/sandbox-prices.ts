import { BILLING_PERIODS } from '@vigil/contracts';
import { sandboxPriceId } from '../../config.ts';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.ts';

/** The products and prices the sandbox's Stripe account sells: every paid plan, monthly and yearly. */
export function sandboxStripePrices() {
  return PLAN_CATALOGUE.filter((plan) => plan.checkout).flatMap((plan) =>
    BILLING_PERIODS.map((period) => ({
      id: sandboxPriceId(plan.name, period),
      product: `Vigil ${plan.name}`,
      unitAmount: period === 'year' ? plan.priceYearlyCents : plan.priceMonthlyCents,
      currency: 'usd',
      interval: period,
    })),
  );
}
