import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, page } from './html.ts';
import type { ShopifySandbox } from './shopify.ts';

/**
 * The `hmac` Shopify adds to the redirect after the grant and to the app URL it opens: hex HMAC-SHA256,
 * keyed with the app's client secret, over every other query parameter sorted by name and written as a
 * form-encoded query string (`code=…&host=…&shop=…&state=…&timestamp=…`), as Shopify's own libraries check it.
 */
export function shopifyQueryHmac(params: Record<string, string> | URLSearchParams, secret: string): string {
  const entries = (params instanceof URLSearchParams ? [...params] : Object.entries(params))
    .filter(([name]) => name !== 'hmac' && name !== 'signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHmac('sha256', secret).update(new URLSearchParams(entries).toString()).digest('hex');
}

/**
 * Shopify's `host` parameter: the shop's admin, `admin.shopify.com/store/{name}`, in unpadded base64url (as
 * in the redirects Shopify sends, e.g. `host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvcXVpY2tzdGFydC01NDBmMmU4OA`).
 */
export function adminHost(domain: string): string {
  return Buffer.from(`admin.shopify.com/store/${domain.replace(/\.myshopify\.com$/, '')}`).toString(
    'base64url',
  );
}

const SCOPE_WORDS: Record<string, string> = {
  read_products: 'View products, variants and collections',
  write_products: 'Manage products, variants and collections',
  read_inventory: 'View inventory levels and locations',
  write_inventory: 'Manage inventory levels',
  read_locations: 'View store locations',
  read_orders: 'View orders, transactions and fulfillments',
  read_customers: 'View customer details',
  read_themes: 'View themes',
  read_online_store_pages: 'View Online Store pages',
};

type Params = Record<string, string | string[] | undefined>;

function one(params: Params | undefined, name: string): string | undefined {
  const value = params?.[name];
  return Array.isArray(value) ? value[0] : value;
}

function errorPage(reply: FastifyReply, status: number, title: string, message: string) {
  return reply
    .code(status)
    .type('text/html')
    .send(
      page(
        `${title} — Shopify (sandbox)`,
        `<section><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></section>`,
      ),
    );
}

function consentPage(shopify: ShopifySandbox, domain: string, shopName: string, params: Params): string {
  const scope = one(params, 'scope') ?? '';
  const scopes = scope
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const items = scopes.length
    ? scopes
        .map(
          (s) =>
            `<li>${escapeHtml(SCOPE_WORDS[s] ?? s)} <span class="muted">(<code>${escapeHtml(s)}</code>)</span></li>`,
        )
        .join('')
    : '<li>No access to the store’s data</li>';
  const grantOptions = params['grant_options[]'];
  const hidden = [
    ['client_id', one(params, 'client_id')],
    ['scope', scope],
    ['redirect_uri', one(params, 'redirect_uri')],
    ['state', one(params, 'state')],
    ['grant_options[]', Array.isArray(grantOptions) ? grantOptions[0] : grantOptions],
  ]
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name!)}" value="${escapeHtml(value!)}">`)
    .join('\n');
  const action = `${shopify.shopPath(domain)}/admin/oauth/authorize`;
  return `<section aria-labelledby="consent-heading">
<p class="muted">Shopify (sandbox) · ${escapeHtml(domain)}</p>
<h1 id="consent-heading">Install Vigil on ${escapeHtml(shopName)}?</h1>
<p>Vigil will be able to:</p>
<ul>${items}</ul>
<p class="muted">You can uninstall Vigil at any time, which revokes this access.</p>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<p><button class="primary" type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="cancel">Cancel</button></p>
</form>
</section>`;
}

/**
 * Shopify's authorization code grant under a shop's base: the grant screen at `GET /admin/oauth/authorize`
 * (posting back to itself), the redirect with `code`, `hmac`, `host`, `shop`, `state` and `timestamp`, and
 * `POST /admin/oauth/access_token`. A cancelled grant does not go back to the app, as on Shopify.
 */
export function registerShopifyOAuth(app: FastifyInstance, shopify: ShopifySandbox): void {
  const check = (domain: string, params: Params, reply: FastifyReply) => {
    const shop = shopify.findShop(domain);
    if (!shop) {
      errorPage(reply, 404, 'Store not found', `There is no store at ${domain}.`);
      return null;
    }
    const problem = shopify.authorizationProblem({
      client_id: one(params, 'client_id'),
      redirect_uri: one(params, 'redirect_uri'),
    });
    if (problem) {
      errorPage(reply, 400, 'Something went wrong', problem);
      return null;
    }
    return shop;
  };

  app.get<{ Params: { shop: string }; Querystring: Params }>(
    '/admin/oauth/authorize',
    async (request, reply) => {
      const shop = check(request.params.shop, request.query, reply);
      if (!shop) return reply;
      return reply
        .type('text/html')
        .send(
          page(`Install Vigil — ${shop.name}`, consentPage(shopify, shop.domain, shop.name, request.query)),
        );
    },
  );

  app.post<{ Params: { shop: string }; Body: Params | undefined }>(
    '/admin/oauth/authorize',
    async (request, reply) => {
      const params = request.body ?? {};
      const shop = check(request.params.shop, params, reply);
      if (!shop) return reply;
      if (one(params, 'decision') !== 'approve') {
        return reply.type('text/html').send(
          page(
            'Installation cancelled — Shopify (sandbox)',
            `<section><h1>Installation cancelled</h1>
<p>Vigil was not installed on ${escapeHtml(shop.name)}, and it has no access to the store.</p>
<p><a href="${escapeHtml(shopify.vigilMonitorsUrl)}">Back to Vigil</a></p></section>`,
          ),
        );
      }
      return reply.redirect(
        shopify.approve(shop.domain, {
          redirect_uri: one(params, 'redirect_uri')!,
          scope: one(params, 'scope'),
          state: one(params, 'state'),
        }),
        302,
      );
    },
  );

  app.post<{ Params: { shop: string }; Body: Record<string, unknown> | undefined }>(
    '/admin/oauth/access_token',
    async (request, reply) => {
      if (!shopify.findShop(request.params.shop)) return reply.code(404).send({ errors: 'Not Found' });
      const { status, body } = shopify.exchangeCode(request.params.shop, request.body ?? {});
      return reply.code(status).send(body);
    },
  );
}
