/** What the storefront's home page showed a shopper. */
export interface StorefrontState {
  /** The storefront answered with a page (2xx). */
  up: boolean;
  passwordProtected: boolean;
  status: number | null;
  responseMs: number | null;
  /** Why it is down, for people: "HTTP 503", "no answer within 10 s". */
  problem: string | null;
}

export interface CartAttempt {
  ok: boolean;
  status: number | null;
  /** Shopify's own words when it refused ("The product 'X' is already sold out."), else the HTTP status. */
  problem: string | null;
}

const TIMEOUT_MS = 10_000;
const MAX_BODY = 512 * 1024;

const gidNumber = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1);

/**
 * The shopper's side of a shop, as a browser sees it: the home page (following redirects, as Shopify sends the
 * myshopify address on to the primary domain) and a real add to cart (`POST /cart/add.js`, Shopify's AJAX
 * cart API). A fresh cart each time: no cookie is kept, so nothing accumulates in a merchant's carts.
 */
export function createStorefront(fetchImpl: typeof fetch = fetch) {
  return {
    async home(base: string, signal?: AbortSignal): Promise<StorefrontState> {
      const started = performance.now();
      const timeout = AbortSignal.timeout(TIMEOUT_MS);
      try {
        const response = await fetchImpl(`${base}/`, {
          headers: { accept: 'text/html', 'user-agent': 'VigilMonitor/1.0 (+storefront check)' },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const responseMs = Math.round(performance.now() - started);
        const body = (await response.text()).slice(0, MAX_BODY);
        const path = new URL(response.url || `${base}/`).pathname;
        const passwordProtected =
          /\/password\/?$/.test(path) || /<form[^>]+action="[^"]*\/password"/i.test(body);
        const up = response.status >= 200 && response.status < 300;
        return {
          up,
          passwordProtected,
          status: response.status,
          responseMs,
          problem: up ? null : `HTTP ${response.status}`,
        };
      } catch (error) {
        const timedOut = timeout.aborted;
        return {
          up: false,
          passwordProtected: false,
          status: null,
          responseMs: null,
          problem: timedOut
            ? `no answer within ${TIMEOUT_MS / 1000} s`
            : `no answer (${(error as Error).message})`,
        };
      }
    },

    async addToCart(base: string, variantGid: string, signal?: AbortSignal): Promise<CartAttempt> {
      const timeout = AbortSignal.timeout(TIMEOUT_MS);
      try {
        const response = await fetchImpl(`${base}/cart/add.js`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ items: [{ id: Number(gidNumber(variantGid)), quantity: 1 }] }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const text = await response.text();
        if (response.ok) return { ok: true, status: response.status, problem: null };
        let reason = `HTTP ${response.status}`;
        try {
          const body = JSON.parse(text) as { description?: unknown };
          if (typeof body.description === 'string') reason = body.description;
        } catch {
          // An HTML error page: the status says enough.
        }
        return { ok: false, status: response.status, problem: reason };
      } catch (error) {
        return {
          ok: false,
          status: null,
          problem: timeout.aborted ? `no answer within ${TIMEOUT_MS / 1000} s` : (error as Error).message,
        };
      }
    },
  };
}
export type Storefront = ReturnType<typeof createStorefront>;
