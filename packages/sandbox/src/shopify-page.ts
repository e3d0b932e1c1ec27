import type { FastifyInstance } from 'fastify';
import { escapeHtml, page } from './html.ts';
import { COMPLIANCE_TOPICS } from './shopify-payloads.ts';
import { CURRENCY_CODES, PRODUCT_STATUSES, type Product, type Shop } from './shopify-shop.ts';
import { DEMO_SHOP } from './shopify-catalogue.ts';
import {
  ShopifyActionError,
  type ComplianceTopic,
  type ProductStatus,
  type ShopifySandbox,
} from './shopify.ts';

/**
 * The Shopify control page at `${basePath}/shopify`: the shops, and for one shop the app's install, the
 * storefront's password page and add to cart, the compliance webhooks, a page of products to change (each
 * change sends the webhook Shopify would), and the webhooks sent. Plain forms that post and redirect back.
 */
const PAGE_SIZE = 10;

type Body = Record<string, string | undefined> | undefined;

function when(iso: string): string {
  return `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC`;
}

/**
 * What each button does, by the name in its form's action; answers the notice to show (or, to show another
 * shop, the notice and that shop).
 */
const ACTIONS: Record<
  string,
  (shopify: ShopifySandbox, shop: string, body: Body) => string | [string, string]
> = {
  'create-shop': (shopify, _shop, body) => {
    const created = shopify.createShop({ name: body?.name ?? '', currency: body?.currency || undefined });
    return [`Created ${created.name} (${created.domain}).`, created.domain];
  },
  uninstall: (shopify, shop) => {
    shopify.uninstall(shop);
    return 'Vigil was uninstalled: its token no longer works and app/uninstalled was sent.';
  },
  password: (shopify, shop, body) => {
    const enabled = body?.enabled === 'true';
    shopify.setPasswordEnabled(shop, enabled);
    return enabled ? 'The storefront now shows its password page.' : 'The storefront is open.';
  },
  cart: (shopify, shop, body) => {
    const broken = body?.broken === 'true';
    shopify.setCartBroken(shop, broken);
    return broken ? 'Add to cart now fails with a server error.' : 'Add to cart works again.';
  },
  compliance: (shopify, shop, body) => {
    const delivery = shopify.sendComplianceWebhook(shop, (body?.topic ?? '') as ComplianceTopic);
    return `Sent ${delivery.topic} to ${delivery.url}.`;
  },
  stock: (shopify, shop, body) => {
    const quantity = Number(body?.quantity);
    if (body?.quantity === undefined || body.quantity.trim() === '') {
      throw new ShopifyActionError('INVALID', 'Enter a stock quantity.');
    }
    const variant = shopify.setStock(shop, body.variantId ?? '', quantity);
    return `Stock set to ${variant.inventoryQuantity}; inventory_levels/update sent.`;
  },
  price: (shopify, shop, body) => {
    const variant = shopify.setPrice(shop, body?.variantId ?? '', body?.price ?? '');
    return `Price set to ${variant.price}; products/update sent.`;
  },
  status: (shopify, shop, body) => {
    const product = shopify.setStatus(shop, body?.productId ?? '', (body?.status ?? '') as ProductStatus);
    return `${product.title} is now ${product.status.toLowerCase()}; products/update sent.`;
  },
  publish: (shopify, shop, body) => {
    const product = shopify.setPublished(shop, body?.productId ?? '', body?.published === 'true');
    return `${product.title} is ${product.published ? 'on' : 'off'} the Online Store; products/update sent.`;
  },
};

interface Shown {
  shop?: string;
  page?: string;
  notice?: string;
}

function hidden(shop: Shop, pageNumber: number): string {
  return `<input type="hidden" name="shop" value="${escapeHtml(shop.domain)}"><input type="hidden" name="page" value="${pageNumber}">`;
}

function shopsSection(shopify: ShopifySandbox, current: Shop, basePath: string): string {
  const options = shopify
    .shops()
    .map(
      (s) =>
        `<option value="${escapeHtml(s.domain)}"${s.domain === current.domain ? ' selected' : ''}>${escapeHtml(s.name)} — ${escapeHtml(s.domain)}${s.installation?.installed ? ' (Vigil installed)' : ''}</option>`,
    )
    .join('');
  const currencies = CURRENCY_CODES.map((c) => `<option${c === 'USD' ? ' selected' : ''}>${c}</option>`).join(
    '',
  );
  return `<section aria-labelledby="shops-heading">
<h1 id="shops-heading">Shopify</h1>
<p class="muted">Stands in for Shopify: each shop's base <code>${escapeHtml(shopify.shopUrl('{shop}'))}</code> plays
<code>https://{shop}</code> (OAuth, <code>/admin/api/{version}/graphql.json</code>, the storefront). The Vigil app is
client <code>${escapeHtml(shopify.clientId)}</code>, opened at <code>${escapeHtml(shopify.appUrl)}</code>.</p>
<form method="get" action="${escapeHtml(`${basePath}/shopify`)}" class="inline">
<label for="shop-choice">Shop</label>
<select id="shop-choice" name="shop">${options}</select>
<button type="submit">Open shop</button>
</form>
<form method="post" action="${escapeHtml(`${basePath}/shopify/create-shop`)}" aria-labelledby="create-shop-heading">
<h2 id="create-shop-heading">Create a shop</h2>
<label for="shop-name">Shop name</label>
<input id="shop-name" name="name" type="text" required maxlength="100" autocomplete="off" aria-describedby="shop-name-hint">
<p id="shop-name-hint" class="muted">Its address is the name as a slug: "Hoodie Heaven" becomes hoodie-heaven.myshopify.com.</p>
<label for="shop-currency">Currency</label>
<select id="shop-currency" name="currency">${currencies}</select>
<p><button class="primary" type="submit">Create shop</button></p>
</form>
</section>`;
}

function appSection(shopify: ShopifySandbox, shop: Shop, basePath: string, pageNumber: number): string {
  const action = (name: string) => escapeHtml(`${basePath}/shopify/${name}`);
  const installation = shop.installation;
  const calls = shopify.calls(shop.domain);
  const bucket = shopify.throttle(shop.domain);
  let status = '<p>Vigil is <strong>not installed</strong>.</p>';
  if (installation?.token) {
    const subscriptions = installation.subscriptions.length
      ? `<ul>${installation.subscriptions.map((s) => `<li><code>${escapeHtml(s.topic)}</code> → ${escapeHtml(s.callbackUrl)} (${escapeHtml(s.apiVersion)})</li>`).join('')}</ul>`
      : '<p class="muted">No webhook subscriptions yet.</p>';
    status = `<p>Vigil is <strong>installed</strong> since ${escapeHtml(when(installation.installedAt))}, with access
${installation.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ') || 'to nothing'}.</p>${subscriptions}`;
  } else if (installation?.uninstalledAt) {
    status = `<p>Vigil was <strong>uninstalled</strong> ${escapeHtml(when(installation.uninstalledAt))}.</p>`;
  }
  const compliance = installation
    ? `<form method="post" action="${action('compliance')}" class="inline" aria-label="Compliance webhooks">
${hidden(shop, pageNumber)}
<span>Compliance webhooks:</span>
${COMPLIANCE_TOPICS.map((t) => `<button type="submit" name="topic" value="${t}">Send ${t}</button>`).join('\n')}
</form>`
    : '';
  return `<section aria-labelledby="shop-heading">
<h2 id="shop-heading">${escapeHtml(shop.name)}</h2>
<p><code>${escapeHtml(shop.domain)}</code> · ${escapeHtml(shop.currency)} ·
<a href="${escapeHtml(shopify.shopPath(shop.domain))}">Open the storefront</a></p>
${status}
<form method="post" action="${action(installation?.token ? 'uninstall' : 'install')}" class="inline">
${hidden(shop, pageNumber)}
${installation?.token ? '<button type="submit">Uninstall app</button>' : '<button class="primary" type="submit">Install Vigil</button>'}
</form>
<form method="post" action="${action('password')}" class="inline">
${hidden(shop, pageNumber)}
<span>Password page is <strong>${shop.passwordEnabled ? 'on' : 'off'}</strong>${shop.passwordEnabled ? ` (password <code>${escapeHtml(shop.storefrontPassword)}</code>)` : ''}.</span>
<button type="submit" name="enabled" value="${!shop.passwordEnabled}">Turn password page ${shop.passwordEnabled ? 'off' : 'on'}</button>
</form>
<form method="post" action="${action('cart')}" class="inline">
${hidden(shop, pageNumber)}
<span>Add to cart <strong>${shop.cartBroken ? 'is broken' : 'works'}</strong>.</span>
<button type="submit" name="broken" value="${!shop.cartBroken}">${shop.cartBroken ? 'Fix add to cart' : 'Break add to cart'}</button>
</form>
${compliance}
<p class="muted">Admin API: ${calls.requests} requests, ${calls.cost} points charged, ${calls.throttled} throttled.
Bucket ${bucket.currentlyAvailable} of ${bucket.maximumAvailable} points, restoring ${bucket.restoreRate} a second.</p>
</section>`;
}

function productRows(shop: Shop, product: Product, basePath: string, pageNumber: number): string {
  const action = (name: string) => escapeHtml(`${basePath}/shopify/${name}`);
  const span = product.variants.length;
  const onlineStore = product.publishedAt !== null;
  const productCells = `<th scope="row" rowspan="${span}">${escapeHtml(product.title)}<br><span class="muted">${escapeHtml(product.handle)}</span></th>
<td rowspan="${span}"><form method="post" action="${action('status')}" class="inline">
${hidden(shop, pageNumber)}<input type="hidden" name="productId" value="${product.id}">
<select name="status" aria-label="Status of ${escapeHtml(product.title)}">${PRODUCT_STATUSES.map((s) => `<option value="${s}"${s === product.status ? ' selected' : ''}>${s.toLowerCase()}</option>`).join('')}</select>
<button type="submit" aria-label="Set status of ${escapeHtml(product.title)}">Set status</button></form></td>
<td rowspan="${span}"><form method="post" action="${action('publish')}" class="inline">
${hidden(shop, pageNumber)}<input type="hidden" name="productId" value="${product.id}">
<span>${onlineStore ? 'Published' : 'Not published'}</span>
<button type="submit" name="published" value="${!onlineStore}" aria-label="${onlineStore ? 'Unpublish' : 'Publish'} ${escapeHtml(product.title)}">${onlineStore ? 'Unpublish' : 'Publish'}</button></form></td>`;
  return product.variants
    .map((variant, i) => {
      const name = product.optionName === null ? product.title : `${product.title} — ${variant.title}`;
      const note = !variant.tracked
        ? ' (not tracked)'
        : variant.inventoryPolicy === 'CONTINUE'
          ? ' (keeps selling)'
          : '';
      return `<tr>${i === 0 ? productCells : ''}
<td>${escapeHtml(variant.title)}</td>
<td><form method="post" action="${action('price')}" class="inline">
${hidden(shop, pageNumber)}<input type="hidden" name="variantId" value="${variant.id}">
<input class="narrow" type="text" inputmode="decimal" name="price" value="${escapeHtml(variant.price)}" required aria-label="Price of ${escapeHtml(name)} (${escapeHtml(shop.currency)})">
<button type="submit" aria-label="Set price of ${escapeHtml(name)}">Set price</button></form></td>
<td><form method="post" action="${action('stock')}" class="inline">
${hidden(shop, pageNumber)}<input type="hidden" name="variantId" value="${variant.id}">
<input class="narrow" type="number" step="1" name="quantity" value="${variant.inventoryQuantity}" required aria-label="Stock of ${escapeHtml(name)}">
<button type="submit" aria-label="Set stock of ${escapeHtml(name)}">Set stock</button>${escapeHtml(note)}</form></td>
</tr>`;
    })
    .join('\n');
}

function productsSection(shop: Shop, basePath: string, pageNumber: number): string {
  const pages = Math.max(1, Math.ceil(shop.products.length / PAGE_SIZE));
  const products = shop.products.slice((pageNumber - 1) * PAGE_SIZE, pageNumber * PAGE_SIZE);
  const link = (n: number, label: string) =>
    `<a href="${escapeHtml(`${basePath}/shopify?shop=${encodeURIComponent(shop.domain)}&page=${n}`)}">${label}</a>`;
  const nav = `<nav aria-label="Product pages"><p>${pageNumber > 1 ? link(pageNumber - 1, '← Previous page') : ''}
Page ${pageNumber} of ${pages}
${pageNumber < pages ? link(pageNumber + 1, 'Next page →') : ''}</p></nav>`;
  const rows = products.map((p) => productRows(shop, p, basePath, pageNumber)).join('\n');
  return `<section aria-labelledby="products-heading">
<h2 id="products-heading">Products (${shop.products.length})</h2>
<p class="muted">Each change sends the webhook Shopify would: products/update for price, status and publication,
inventory_levels/update for stock. Prices are in ${escapeHtml(shop.currency)}.</p>
<div class="scroll"><table>
<thead><tr><th scope="col">Product</th><th scope="col">Status</th><th scope="col">Online Store</th><th scope="col">Variant</th><th scope="col">Price</th><th scope="col">Stock</th></tr></thead>
<tbody>${rows}</tbody></table></div>
${nav}
</section>`;
}

function deliveriesSection(shopify: ShopifySandbox): string {
  const deliveries = shopify.deliveries().slice(0, 20);
  if (deliveries.length === 0) {
    return `<section aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Webhooks sent</h2>
<p class="muted">None yet. Changes to a shop where Vigil subscribed to webhooks show up here.</p></section>`;
  }
  const rows = deliveries
    .map((d) => {
      const answer =
        d.responseStatus !== null
          ? `HTTP ${d.responseStatus}`
          : d.error
            ? `no answer (${d.error})`
            : 'waiting';
      return `<tr><td>${escapeHtml(when(d.createdAt))}</td><td>${escapeHtml(d.shop)}</td><td><code>${escapeHtml(d.topic)}</code></td>
<td>${escapeHtml(d.url)}</td><td>${escapeHtml(d.status)}: ${escapeHtml(answer)}, ${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}</td></tr>`;
    })
    .join('\n');
  return `<section aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Webhooks sent</h2>
<div class="scroll"><table><caption class="muted" style="text-align:left">The 20 newest, newest first. <a href="">Refresh</a></caption>
<thead><tr><th scope="col">Time</th><th scope="col">Shop</th><th scope="col">Topic</th><th scope="col">Address</th><th scope="col">Outcome</th></tr></thead>
<tbody>${rows}</tbody></table></div></section>`;
}

/** The Shopify line on the sandbox home page. */
export function shopifySummary(shopify: ShopifySandbox, basePath: string): string {
  const shops = shopify.shops();
  const installed = shops.filter((s) => s.installation?.installed).length;
  return `<section aria-labelledby="shopify-summary-heading"><h2 id="shopify-summary-heading">Shopify</h2>
<p>${shops.length} ${shops.length === 1 ? 'shop' : 'shops'}, Vigil installed on ${installed}, ${shopify.deliveries().length} webhooks sent.
<a href="${escapeHtml(`${basePath}/shopify`)}">Open the Shopify sandbox</a></p></section>`;
}

export function registerShopifyPage(app: FastifyInstance, shopify: ShopifySandbox, basePath: string): void {
  const back = (shop: string | undefined, pageNumber: string | undefined, notice: string) => {
    const query = new URLSearchParams({
      ...(shop ? { shop } : {}),
      ...(pageNumber ? { page: pageNumber } : {}),
      notice,
    });
    return `${basePath}/shopify?${query}`;
  };

  app.get<{ Querystring: Shown }>('/shopify', async (request, reply) => {
    // The demo shop always exists (reset() makes it again), so there is always a shop to show.
    const shop = shopify.findShop(request.query.shop ?? '') ?? shopify.findShop(DEMO_SHOP.domain)!;
    const notice = request.query.notice;
    const pages = Math.max(1, Math.ceil(shop.products.length / PAGE_SIZE));
    const pageNumber = Math.min(pages, Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1));
    const body = `${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
<p><a href="${escapeHtml(basePath)}">← Sandbox home</a></p>
${shopsSection(shopify, shop, basePath)}
${appSection(shopify, shop, basePath, pageNumber)}
${productsSection(shop, basePath, pageNumber)}
${deliveriesSection(shopify)}`;
    return reply.type('text/html').send(page('Shopify — Vigil sandbox', body));
  });

  app.post<{ Body: Body }>('/shopify/install', async (request, reply) => {
    try {
      return reply.redirect(shopify.installUrl(request.body?.shop ?? ''), 303);
    } catch (error) {
      if (!(error instanceof ShopifyActionError)) throw error;
      return reply.redirect(back(request.body?.shop, request.body?.page, error.message), 303);
    }
  });

  app.post<{ Params: { action: string }; Body: Body }>('/shopify/:action', async (request, reply) => {
    const act = ACTIONS[request.params.action];
    const shop = request.body?.shop;
    if (!act) return reply.redirect(back(shop, request.body?.page, 'Unknown action.'), 303);
    try {
      const outcome = act(shopify, shop ?? '', request.body);
      if (Array.isArray(outcome)) return reply.redirect(back(outcome[1], undefined, outcome[0]), 303);
      return reply.redirect(back(shop, request.body?.page, outcome), 303);
    } catch (error) {
      if (!(error instanceof ShopifyActionError)) throw error;
      return reply.redirect(back(shop, request.body?.page, error.message), 303);
    }
  });
}
