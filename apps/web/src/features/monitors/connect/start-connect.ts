import type { ConnectedService } from '@vigil/contracts';
import { getOAuthUri } from '../api/get-oauth-uri.ts';
import type { MonitorFormValues } from '../monitor-form.ts';
import { saveOAuthReturn } from './oauth-return.ts';

export interface StartConnect {
  /** The service the account is connected for: a Shopify shop, a Google account, a Facebook account. */
  service: ConnectedService;
  /** Shopify: the shop as typed (`hoodies`, `hoodies.myshopify.com`, the shop's own address). */
  shop?: string | undefined;
  /** Reconnects this monitor's account. */
  monitorId?: string | undefined;
  /** Where /oauth brings the user back. */
  returnTo: string;
  /** The monitor form's values, restored on the way back. */
  values?: MonitorFormValues | undefined;
}

/**
 * Asks for the provider's authorize URL, saves where to come back (and whose page it left for), and leaves the
 * app for it. Resolves with the server's message when the URL could not be had (the api client showed it too).
 * Otherwise the page is left, so loading states stay on until the browser goes; the promise resolves with ''
 * only if the page comes back from the back-forward cache (Back on the provider's page), so its buttons work
 * again.
 */
export async function startConnect({
  service,
  shop,
  monitorId,
  returnTo,
  values,
}: StartConnect): Promise<string> {
  const result = await getOAuthUri({
    service,
    ...(shop ? { shop } : {}),
    ...(monitorId ? { monitorId } : {}),
  });
  if (!result.ok) return result.message;
  const { url, provider, account } = result.data;
  saveOAuthReturn({
    returnTo,
    provider,
    ...(account ? { account } : {}),
    ...(values ? { values } : {}),
  });
  const back = new Promise<string>((resolve) => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      window.removeEventListener('pageshow', onShow);
      resolve('');
    };
    window.addEventListener('pageshow', onShow);
  });
  window.location.assign(url);
  return back;
}
