// HTTP helpers of the benchmarks that set a server up as a person would (shopify, ads): requests to the
// server, JSON calls answering `{ data }`, users on the Business plan (bought through the sandbox's Stripe
// Checkout), and a provider bound through its OAuth pages (the sandbox's grant, consent or login form, scraped
// and posted as a browser would).
import http from 'node:http';

export const PASSWORD = 'Bench-Pass-2026!x';
/** How long a paid order may wait for Stripe's webhook (the sandbox's) to activate it. */
const ORDER_ACTIVE_TIMEOUT_MS = 30_000;

const unescapeHtml = (text) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The first `<form method="post">` of a page: its action and hidden fields, unescaped. */
export function postForm(html) {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) return null;
  const fields = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[unescapeHtml(name)] = unescapeHtml(value);
  return { action: unescapeHtml(action), fields };
}

/** A client of the server on 127.0.0.1:`port`, over keep-alive connections. */
export function httpClient(port) {
  const base = `http://127.0.0.1:${port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  /** One request; `json` or `form` is the body, `address` the client's (X-Forwarded-For). Resolves with status, headers and text. */
  function request(method, path, { token, json, form, address } = {}) {
    return new Promise((resolve, reject) => {
      const payload =
        json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined;
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          headers: {
            ...(token ? { authorization: token } : {}),
            ...(address ? { 'x-forwarded-for': address } : {}),
            ...(payload === undefined
              ? {}
              : {
                  'content-type':
                    json !== undefined ? 'application/json' : 'application/x-www-form-urlencoded',
                  'content-length': Buffer.byteLength(payload),
                }),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path}: timeout`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A JSON call answering `{ data }`; anything but 200 throws with the answer. */
  async function api(method, path, options) {
    const res = await request(method, path, options);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body).data;
  }

  let registered = 0;
  /**
   * Registers and onboards a user and buys Business monthly as the person's browser would: `plan-order/create`,
   * the sandbox's Checkout paid with 4242 4242 4242 4242 (its JSON API, as the page's form posts), then the
   * order read until Stripe's webhook has activated it. Resolves with the user's token.
   */
  async function registerBusinessUser(email) {
    registered += 1;
    const { token } = await api('POST', '/oauth-bff/v1/user/register', {
      json: { email, password: PASSWORD },
      address: `10.0.${(registered >> 8) & 255}.${registered & 255}`,
    });
    await api('POST', '/monitor-bff/onboarding/user-info', {
      token,
      json: { industry: 'Other', contactEmail: email },
    });
    const { orderId, url } = await api('POST', '/monitor-bff/plan-order/create', {
      token,
      json: { plan: 'Business', period: 'month' },
    });
    const session = new URL(url).pathname.split('/').at(-1);
    const { outcome, message } = await api('POST', `/sandbox/api/stripe/checkout/sessions/${session}/pay`, {
      json: { card: '4242 4242 4242 4242' },
    });
    if (outcome !== 'paid') throw new Error(`${email}: Checkout answered ${outcome}: ${message}`);
    const deadline = Date.now() + ORDER_ACTIVE_TIMEOUT_MS;
    for (;;) {
      const order = await api('GET', `/monitor-bff/plan-order?order=${encodeURIComponent(orderId)}`, {
        token,
      });
      if (order.status === 'active') return token;
      if (order.status === 'failed') {
        throw new Error(`${email}: order ${orderId} failed: ${order.failure?.message ?? 'no reason given'}`);
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${email}: order ${orderId} still ${order.status} after ${ORDER_ACTIVE_TIMEOUT_MS / 1000} s: did Stripe's webhook reach Vigil?`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Binds a provider account as a person does: `ouathuri?<query>`, the provider's page (the sandbox's), its
   * form posted with `choices` (the person's picks and the button), the 302 back to `/app/oauth`, and its
   * query posted to `bind` (a fragment such as Facebook's `#_=_` is dropped, as the web app does). Resolves
   * with the connection's id.
   */
  async function bind(token, query, choices) {
    const { url } = await api('GET', `/monitor-bff/monitor/ouathuri?${query}`, { token });
    const authorize = new URL(url);
    const page = await request('GET', authorize.pathname + authorize.search);
    if (page.status !== 200) throw new Error(`${query}: the provider's page answered ${page.status}`);
    const form = postForm(page.body);
    if (!form) throw new Error(`${query}: the provider's page has no form`);
    const answer = await request('POST', form.action, { form: { ...form.fields, ...choices } });
    if (answer.status !== 302) throw new Error(`${query}: the form answered ${answer.status}`);
    const back = new URL(answer.headers.location, base);
    const bound = await api('POST', '/monitor-bff/monitor/bind', {
      token,
      json: { params: Object.fromEntries(back.searchParams) },
    });
    if (bound.status !== 'bound') throw new Error(`${query}: bind answered ${JSON.stringify(bound)}`);
    return bound.connection.connectionId;
  }

  return { base, request, api, registerBusinessUser, bind };
}
