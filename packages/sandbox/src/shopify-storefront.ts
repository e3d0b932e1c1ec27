import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from './html.ts';
import type { ShopifySandbox } from './shopify.ts';
import { ajaxProduct, cartLineItem, formatMoney, metaJson, productPath } from './shopify-payloads.ts';
import {
  cents,
  idOf,
  isOnlineStoreVisible,
  variantAvailable,
  variantName,
  type Product,
  type Shop,
  type Variant,
} from './shopify-shop.ts';

/**
 * Each shop's storefront under its base, in the shapes Vigil's checks read: the home page, product pages,
 * `/products/{handle}.js`, `/meta.json`, `/cart/add.js` (and the theme's `/cart/add` form and `/cart`), and
 * the password page every page redirects to while the store is locked — at `/password` relative to the base,
 * as Shopify serves it at the shop's root. The cart lives in a cookie, so the server keeps none.
 */
type Params = { shop: string };
type Body = Record<string, unknown> | undefined;

const THEME_CSS = `
  body { font: 16px/1.5 Georgia, 'Times New Roman', serif; margin: 0; color: #222; background: #fbf8f3; }
  header, footer { padding: 16px 24px; background: #fff; border-bottom: 1px solid #e8e1d6; }
  footer { border-top: 1px solid #e8e1d6; border-bottom: 0; color: #666; font-size: 14px; }
  header a { color: inherit; text-decoration: none; }
  header nav { float: right; }
  main { max-width: 960px; margin: 24px auto; padding: 0 16px; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 16px; list-style: none; padding: 0; }
  .grid a { color: inherit; }
  img { max-width: 100%; height: auto; display: block; border-radius: 4px; }
  label { display: block; margin: 12px 0 4px; }
  select, input { font: inherit; padding: 8px; max-width: 100%; }
  button { font: inherit; padding: 10px 20px; background: #222; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  button[disabled] { background: #999; cursor: not-allowed; }
  .error { color: #a40000; }
  .sold-out { color: #a40000; font-weight: bold; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 8px; border-bottom: 1px solid #e8e1d6; }
`;

function themePage(shopify: ShopifySandbox, shop: Shop, title: string, body: string, chrome = true): string {
  const base = shopify.shopPath(shop.domain);
  const header = chrome
    ? `<header><nav aria-label="Store"><a href="${escapeHtml(`${base}/cart`)}">Cart</a></nav>
<a href="${escapeHtml(base)}"><strong>${escapeHtml(shop.name)}</strong></a></header>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${THEME_CSS}</style>
</head>
<body>
${header}
<main>${body}</main>
<footer>© ${escapeHtml(shop.name)} · Powered by Shopify (Vigil sandbox)</footer>
</body>
</html>`;
}

function cookies(request: FastifyRequest): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const cut = part.indexOf('=');
    if (cut > 0) jar.set(part.slice(0, cut).trim(), decodeURIComponent(part.slice(cut + 1).trim()));
  }
  return jar;
}

/** The cart cookie: `variantId:quantity` pairs joined with `|`. */
function readCart(request: FastifyRequest): Map<number, number> {
  const cart = new Map<number, number>();
  for (const pair of (cookies(request).get('cart') ?? '').split('|')) {
    const [id, quantity] = pair.split(':').map(Number);
    if (Number.isSafeInteger(id) && Number.isSafeInteger(quantity) && quantity! > 0) cart.set(id!, quantity!);
  }
  return cart;
}

function writeCart(reply: FastifyReply, path: string, cart: Map<number, number>): void {
  const value = [...cart].map(([id, quantity]) => `${id}:${quantity}`).join('|');
  reply.header('Set-Cookie', `cart=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Lax`);
}

type CartRequest = { id: unknown; quantity: unknown }[];

/** The three bodies /cart/add.js takes: JSON `{items: [...]}`, JSON `{id, quantity}`, or a form's id and quantity. */
function cartRequest(body: Body): { items: CartRequest; many: boolean } {
  if (Array.isArray(body?.items)) {
    return {
      items: (body.items as unknown[]).map((item) => ({
        id: (item as Record<string, unknown> | null)?.id,
        quantity: (item as Record<string, unknown> | null)?.quantity,
      })),
      many: true,
    };
  }
  return { items: [{ id: body?.id, quantity: body?.quantity }], many: false };
}

type CartError = { status: number; body: Record<string, unknown> };

function cartError(status: number, description: string, message = 'Cart Error'): CartError {
  return { status, body: { status, message, description } };
}

/**
 * Adds the lines to the cart as Shopify does: 404 for a variant that is not for sale on the Online Store, 400
 * for a missing id, 422 for one sold out or already all in the cart (nothing added); asking for more than is
 * left adds what is left and answers 422 saying so. Variants that keep selling or are untracked always fit.
 */
function addToCart(shop: Shop, cart: Map<number, number>, items: CartRequest) {
  const adding: { product: Product; variant: Variant; quantity: number }[] = [];
  for (const item of items) {
    const id = idOf(typeof item.id === 'string' ? item.id.trim() : item.id, 'ProductVariant');
    const quantity = item.quantity === undefined || item.quantity === '' ? 1 : Number(item.quantity);
    if (id === null || !Number.isInteger(quantity) || quantity < 1) {
      return {
        error: {
          status: 400,
          body: {
            status: 'bad_request',
            message: 'Parameter Missing or Invalid',
            description: 'Required parameter missing or invalid: items',
          },
        },
      };
    }
    const variant = shop.variantsById.get(id);
    const product = variant && shop.productsById.get(variant.productId);
    if (!variant || !product || !isOnlineStoreVisible(product))
      return { error: cartError(404, 'Cannot find variant') };
    adding.push({ product, variant, quantity });
  }
  let short: CartError | undefined;
  for (const line of adding) {
    const { product, variant, quantity } = line;
    if (!variant.tracked || variant.inventoryPolicy === 'CONTINUE') continue;
    const left = variant.inventoryQuantity - (cart.get(variant.id) ?? 0);
    if (variant.inventoryQuantity <= 0) {
      return { error: cartError(422, `The product '${variantName(product, variant)}' is already sold out.`) };
    }
    if (left <= 0)
      return { error: cartError(422, 'The maximum quantity of this item is already in your cart.') };
    if (quantity > left) {
      line.quantity = left;
      short ??= cartError(422, `Only ${left} items were added to your cart.`);
    }
  }
  for (const { variant, quantity } of adding) cart.set(variant.id, (cart.get(variant.id) ?? 0) + quantity);
  if (short) return { error: short, changed: true };
  return {
    added: adding.map(({ product, variant }) => ({ product, variant, quantity: cart.get(variant.id)! })),
  };
}

/** A stable colour per product, so the placeholder images tell products apart. */
function productSvg(product: Product): string {
  const hue = product.id % 360;
  const initials = product.title
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="${escapeHtml(product.title)}">
<title>${escapeHtml(product.title)}</title>
<rect width="600" height="600" fill="hsl(${hue} 45% 72%)"/>
<text x="300" y="340" font-family="Georgia, serif" font-size="160" text-anchor="middle" fill="hsl(${hue} 45% 25%)">${escapeHtml(initials)}</text>
</svg>`;
}

export function registerShopifyStorefront(app: FastifyInstance, shopify: ShopifySandbox): void {
  const notFound = (reply: FastifyReply, shop: Shop | undefined) => {
    reply.code(404).type('text/html');
    if (!shop) {
      return reply.send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Store not found</title></head><body><main><h1>Sorry, this store is currently unavailable.</h1></main></body></html>`,
      );
    }
    return reply.send(
      themePage(
        shopify,
        shop,
        `404 Not Found – ${shop.name}`,
        '<h1>Page not found</h1><p>The page you were looking for does not exist.</p>',
      ),
    );
  };

  /** The shop, or null once the answer is sent: 404 for an unknown shop, the password page while locked. */
  const open = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Shop | null => {
    const shop = shopify.findShop(request.params.shop);
    if (!shop) {
      notFound(reply, undefined);
      return null;
    }
    if (
      shop.passwordEnabled &&
      cookies(request).get('storefront_digest') !== shopify.storefrontDigest(shop)
    ) {
      reply.redirect(`${shopify.shopUrl(shop.domain)}/password`, 302);
      return null;
    }
    return shop;
  };

  const price = (shop: Shop, amount: string) => escapeHtml(formatMoney(amount, shop.currency));

  app.get<{ Params: Params }>('/', async (request, reply) => {
    const shop = open(request, reply);
    if (!shop) return reply;
    const base = shopify.shopPath(shop.domain);
    const visible = shop.products.filter(isOnlineStoreVisible).slice(0, 48);
    const cards = visible
      .map((p) => {
        const image =
          p.imageAlt === null
            ? ''
            : `<img src="${escapeHtml(shopify.urls(shop).image(p))}" alt="" width="300" height="300">`;
        const available = p.variants.some(variantAvailable);
        return `<li><a href="${escapeHtml(base + productPath(p))}">${image}<span>${escapeHtml(p.title)}</span></a><br>
${available ? price(shop, p.variants[0]!.price) : '<span class="sold-out">Sold out</span>'}</li>`;
      })
      .join('\n');
    return reply.type('text/html').send(
      themePage(
        shopify,
        shop,
        shop.name,
        `<h1>${escapeHtml(shop.name)}</h1>
<section aria-labelledby="products-heading"><h2 id="products-heading">Products</h2>
${visible.length ? `<ul class="grid">${cards}</ul>` : '<p>No products yet.</p>'}</section>`,
      ),
    );
  });

  const passwordPage = (shop: Shop, error?: string) =>
    themePage(
      shopify,
      shop,
      shop.name,
      `<h1>Opening soon</h1>
<p>${escapeHtml(shop.name)} will be opening soon.</p>
<form method="post" action="${escapeHtml(`${shopify.shopPath(shop.domain)}/password`)}" id="login_form" accept-charset="UTF-8" class="storefront-password-form">
<input type="hidden" name="form_type" value="storefront_password">
<input type="hidden" name="utf8" value="✓">
<label for="password">Enter store using password</label>
<input type="password" name="password" id="password" autocomplete="current-password" required${error ? ' aria-invalid="true" aria-describedby="password-error"' : ''}>
${error ? `<p id="password-error" class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<p><button type="submit">Enter</button></p>
</form>`,
      false,
    );

  app.get<{ Params: Params }>('/password', async (request, reply) => {
    const shop = shopify.findShop(request.params.shop);
    if (!shop) return notFound(reply, undefined);
    if (!shop.passwordEnabled) return reply.redirect(shopify.shopUrl(shop.domain), 302);
    return reply.type('text/html').send(passwordPage(shop));
  });

  app.post<{ Params: Params; Body: Body }>('/password', async (request, reply) => {
    const shop = shopify.findShop(request.params.shop);
    if (!shop) return notFound(reply, undefined);
    if (request.body?.password !== shop.storefrontPassword) {
      return reply.code(401).type('text/html').send(passwordPage(shop, 'Wrong password.'));
    }
    reply.header(
      'Set-Cookie',
      `storefront_digest=${shopify.storefrontDigest(shop)}; Path=${shopify.shopPath(shop.domain)}; HttpOnly; SameSite=Lax`,
    );
    return reply.redirect(shopify.shopUrl(shop.domain), 302);
  });

  const productHtml = (shop: Shop, product: Product, selected: string | undefined) => {
    const base = shopify.shopPath(shop.domain);
    const chosen =
      product.variants.find((v) => String(v.id) === selected) ??
      product.variants.find(variantAvailable) ??
      product.variants[0]!;
    const available = product.variants.some(variantAvailable);
    const options = product.variants
      .map(
        (v) =>
          `<option value="${v.id}"${v === chosen ? ' selected' : ''}${variantAvailable(v) ? '' : ' disabled'}>${escapeHtml(v.title)} – ${price(shop, v.price)}${variantAvailable(v) ? '' : ' (sold out)'}</option>`,
      )
      .join('');
    const picker =
      product.optionName === null
        ? `<input type="hidden" name="id" value="${chosen.id}">`
        : `<label for="variant">${escapeHtml(product.optionName)}</label><select id="variant" name="id">${options}</select>`;
    const image =
      product.imageAlt === null
        ? ''
        : `<img src="${escapeHtml(shopify.urls(shop).image(product))}" alt="${escapeHtml(product.imageAlt)}" width="600" height="600">`;
    return `<article aria-labelledby="product-title">
${image}
<h1 id="product-title">${escapeHtml(product.title)}</h1>
<p>${price(shop, chosen.price)}${available ? '' : ' <span class="sold-out">Sold out</span>'}</p>
${product.description ? `<p>${escapeHtml(product.description)}</p>` : ''}
<form method="post" action="${escapeHtml(`${base}/cart/add`)}" id="product-form" accept-charset="UTF-8">
<input type="hidden" name="form_type" value="product">
${picker}
<label for="quantity">Quantity</label>
<input type="number" id="quantity" name="quantity" value="1" min="1" inputmode="numeric">
<p><button type="submit" name="add"${available ? '' : ' disabled'}>${available ? 'Add to cart' : 'Sold out'}</button></p>
</form>
</article>`;
  };

  app.get<{ Params: Params & { handle: string }; Querystring: { variant?: string } }>(
    '/products/:handle',
    async (request, reply) => {
      const shop = open(request, reply);
      if (!shop) return reply;
      const json = request.params.handle.endsWith('.js');
      const handle = json ? request.params.handle.slice(0, -'.js'.length) : request.params.handle;
      const product = shop.productsByHandle.get(handle);
      if (!product || !isOnlineStoreVisible(product)) {
        if (json)
          return reply.code(404).send({ status: 404, message: 'Not Found', description: 'Not Found' });
        return notFound(reply, shop);
      }
      if (json) return ajaxProduct(product, shopify.urls(shop));
      return reply
        .type('text/html')
        .send(
          themePage(
            shopify,
            shop,
            `${product.title} – ${shop.name}`,
            productHtml(shop, product, request.query.variant),
          ),
        );
    },
  );

  app.get<{ Params: Params }>('/meta.json', async (request, reply) => {
    const shop = open(request, reply);
    if (!shop) return reply;
    return metaJson(shop, shopify.urls(shop));
  });

  const brokenCart = (reply: FastifyReply, shop: Shop) =>
    reply
      .code(500)
      .type('text/html')
      .send(
        themePage(
          shopify,
          shop,
          `Internal Server Error – ${shop.name}`,
          '<h1>Internal Server Error</h1><p>There was an error processing your request. Please try again in a few minutes.</p>',
        ),
      );

  app.post<{ Params: Params; Body: Body }>('/cart/add.js', async (request, reply) => {
    const shop = open(request, reply);
    if (!shop) return reply;
    if (shop.cartBroken) return brokenCart(reply, shop);
    const cart = readCart(request);
    const { items, many } = cartRequest(request.body);
    const outcome = addToCart(shop, cart, items);
    if (outcome.changed) writeCart(reply, shopify.shopPath(shop.domain), cart);
    if (outcome.error) return reply.code(outcome.error.status).send(outcome.error.body);
    writeCart(reply, shopify.shopPath(shop.domain), cart);
    const lines = outcome.added.map(({ product, variant, quantity }) =>
      cartLineItem(product, variant, quantity, shopify.urls(shop)),
    );
    return many ? { items: lines } : lines[0];
  });

  app.post<{ Params: Params; Body: Body }>('/cart/add', async (request, reply) => {
    const shop = open(request, reply);
    if (!shop) return reply;
    if (shop.cartBroken) return brokenCart(reply, shop);
    const cart = readCart(request);
    const outcome = addToCart(shop, cart, cartRequest(request.body).items);
    if (outcome.changed) writeCart(reply, shopify.shopPath(shop.domain), cart);
    if (outcome.error) {
      const description = String(outcome.error.body.description);
      return reply
        .code(outcome.error.status)
        .type('text/html')
        .send(
          themePage(
            shopify,
            shop,
            `Cart error – ${shop.name}`,
            `<h1>Cart error</h1><p role="alert">${escapeHtml(description)}</p>`,
          ),
        );
    }
    writeCart(reply, shopify.shopPath(shop.domain), cart);
    return reply.redirect(`${shopify.shopUrl(shop.domain)}/cart`, 302);
  });

  app.get<{ Params: Params }>('/cart', async (request, reply) => {
    const shop = open(request, reply);
    if (!shop) return reply;
    const lines = [...readCart(request)].flatMap(([id, quantity]) => {
      const variant = shop.variantsById.get(id);
      const product = variant && shop.productsById.get(variant.productId);
      return variant && product ? [{ product, variant, quantity }] : [];
    });
    const total = lines.reduce((sum, { variant, quantity }) => sum + cents(variant.price) * quantity, 0);
    const rows = lines
      .map(
        ({ product, variant, quantity }) =>
          `<tr><td>${escapeHtml(variantName(product, variant))}</td><td>${quantity}</td><td>${price(shop, ((cents(variant.price) * quantity) / 100).toFixed(2))}</td></tr>`,
      )
      .join('');
    return reply.type('text/html').send(
      themePage(
        shopify,
        shop,
        `Your cart – ${shop.name}`,
        `<h1>Your cart</h1>
${
  lines.length
    ? `<table><thead><tr><th scope="col">Product</th><th scope="col">Quantity</th><th scope="col">Total</th></tr></thead><tbody>${rows}</tbody></table>
<p><strong>Subtotal ${price(shop, (total / 100).toFixed(2))}</strong></p>
<p><button type="button" disabled>Check out</button> Checkout is not part of the sandbox.</p>`
    : '<p>Your cart is empty.</p>'
}`,
      ),
    );
  });

  app.get<{ Params: Params & { file: string } }>('/cdn/shop/products/:file', async (request, reply) => {
    const shop = shopify.findShop(request.params.shop);
    const product = shop?.productsById.get(Number(request.params.file.replace(/\.svg$/, '')));
    if (!shop || !product || product.imageAlt === null) return reply.code(404).send('Not Found');
    return reply
      .type('image/svg+xml')
      .header('Cache-Control', 'public, max-age=3600')
      .send(productSvg(product));
  });
}
