import { useCallback } from 'react';
import { openBillingPortal } from '../api/open-billing-portal.ts';
import { useLeavingState } from './use-leaving-state.ts';

/**
 * "Manage billing": opens a Stripe customer portal session and goes there. A failure is shown by the api
 * client's error notification with the server's message.
 */
export function useBillingPortal() {
  const [opening, setOpening] = useLeavingState(false);
  const open = useCallback(async () => {
    setOpening(true);
    const result = await openBillingPortal();
    if (!result.ok) {
      setOpening(false);
      return;
    }
    window.location.assign(result.data.url);
  }, [setOpening]);
  return { openPortal: () => void open(), opening };
}
