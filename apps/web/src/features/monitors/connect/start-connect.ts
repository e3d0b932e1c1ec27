import { getOAuthUri } from '../api/get-oauth-uri.ts';
import type { MonitorFormValues } from '../monitor-form.ts';
import { saveOAuthReturn } from './oauth-return.ts';

export interface StartConnect {
  /** The shop as typed (`hoodies`, `hoodies.myshopify.com`, the shop's own address). */
  shop?: string | undefined;
  /** Reconnects this monitor's shop. */
  monitorId?: string | undefined;
  /** Where /oauth brings the user back. */
  returnTo: string;
  /** The monitor form's values, restored on the way back. */
  values?: MonitorFormValues | undefined;
}

/**
 * Asks for the provider's authorize URL, saves where to come back, and leaves the app for it. Resolves with
 * the server's message when the URL could not be had (the api client showed it too). Otherwise the page is
 * left, so loading states stay on until the browser goes; the promise resolves with '' only if the page comes
 * back from the back-forward cache (Back on Shopify's page), so its buttons work again.
 */
export async function startConnect({ shop, monitorId, returnTo, values }: StartConnect): Promise<string> {
  const result = await getOAuthUri({
    service: 'shopify',
    ...(shop ? { shop } : {}),
    ...(monitorId ? { monitorId } : {}),
  });
  if (!result.ok) return result.message;
  saveOAuthReturn({ returnTo, account: result.data.account, ...(values ? { values } : {}) });
  const back = new Promise<string>((resolve) => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      window.removeEventListener('pageshow', onShow);
      resolve('');
    };
    window.addEventListener('pageshow', onShow);
  });
  window.location.assign(result.data.url);
  return back;
}
