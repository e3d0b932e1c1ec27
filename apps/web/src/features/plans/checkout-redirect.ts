/**
 * The spec's `redirect` parameter (a pending binding) does not survive a trip through Stripe Checkout, whose
 * return addresses carry only the order. The pricing page keeps it for this tab before leaving, and the
 * payment pages continue to it once the plan runs.
 */
export const CHECKOUT_REDIRECT_KEY = 'vigil.checkoutRedirect';

/** Keeps `redirect` for the payment pages, or forgets an older one when there is none now. */
export function rememberCheckoutRedirect(redirect: string | undefined): void {
  try {
    if (redirect) window.sessionStorage.setItem(CHECKOUT_REDIRECT_KEY, redirect);
    else window.sessionStorage.removeItem(CHECKOUT_REDIRECT_KEY);
  } catch {
    // Storage unavailable (private mode): the person lands on the monitors instead.
  }
}

export function readCheckoutRedirect(): string | null {
  try {
    return window.sessionStorage.getItem(CHECKOUT_REDIRECT_KEY);
  } catch {
    return null;
  }
}

export function forgetCheckoutRedirect(): void {
  rememberCheckoutRedirect(undefined);
}
