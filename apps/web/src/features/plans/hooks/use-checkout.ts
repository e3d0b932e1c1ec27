import { useCallback } from 'react';
import type { PlanOrderCreateBody } from '@vigil/contracts';
import type { ApiResult } from '../../../lib/api-client.ts';
import { createPlanOrder, type PlanOrderCreated } from '../api/create-plan-order.ts';
import { rememberCheckoutRedirect } from '../checkout-redirect.ts';
import { useLeavingState } from './use-leaving-state.ts';

interface CheckoutOptions {
  /** The `redirect` to continue to after paying; left as it was when not given. */
  redirect?: string | undefined;
}

/**
 * Buys a paid plan: creates the order, then leaves for Stripe Checkout (a full page load). The answer is
 * handed back so the caller can react to a refusal; the api client has already shown its message.
 */
export function useCheckout() {
  const [starting, setStarting] = useLeavingState<string | null>(null);

  const startCheckout = useCallback(
    async (
      body: PlanOrderCreateBody,
      options: CheckoutOptions = {},
    ): Promise<ApiResult<PlanOrderCreated>> => {
      setStarting(body.plan);
      const result = await createPlanOrder(body);
      if (!result.ok) {
        setStarting(null);
        return result;
      }
      if ('redirect' in options) rememberCheckoutRedirect(options.redirect);
      window.location.assign(result.data.url);
      return result;
    },
    [setStarting],
  );

  /** The plan whose checkout is being opened, or null. */
  return { startCheckout, starting };
}
