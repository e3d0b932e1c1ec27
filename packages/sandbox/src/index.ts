import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { GoogleSandbox, type GoogleOptions } from './google.ts';
import { registerGoogleAdsApi } from './google-ads-api.ts';
import { registerGoogleApi } from './google-api.ts';
import { registerGoogleOAuth } from './google-oauth.ts';
import { googleSummary, registerGooglePage } from './google-page.ts';
import { escapeHtml, page } from './html.ts';
import { createSmtpServer, Mailbox, type Mail } from './mailbox.ts';
import { MetaSandbox, type MetaOptions } from './meta.ts';
import { registerMetaApi } from './meta-api.ts';
import { registerMetaGraph } from './meta-graph.ts';
import { registerMetaDialog } from './meta-oauth.ts';
import { metaSummary, registerMetaPage } from './meta-page.ts';
import { OidcProvider } from './oidc.ts';
import { ShopifySandbox, type ShopifyOptions } from './shopify.ts';
import { StripeSandbox, type StripeOptions } from './stripe.ts';
import { registerStripeApi } from './stripe-api.ts';
import { registerStripeCheckoutPage } from './stripe-checkout-page.ts';
import { registerStripePage, stripeSummary } from './stripe-page.ts';
import { registerStripePortalPage } from './stripe-portal-page.ts';
import { registerShopifyAdminApi } from './shopify-admin-api.ts';
import { registerShopifyApi } from './shopify-api.ts';
import { registerShopifyOAuth } from './shopify-oauth.ts';
import { registerShopifyPage, shopifySummary } from './shopify-page.ts';
import { registerShopifyStorefront } from './shopify-storefront.ts';
import { registerTwilioApi } from './twilio-api.ts';
import { phoneSummary, registerPhonePage } from './twilio-page.ts';
import { registerTwilioRest } from './twilio-rest.ts';
import { TwilioSandbox, type TwilioOptions } from './twilio.ts';

export type { Mail } from './mailbox.ts';
export { createSmtpServer, Mailbox } from './mailbox.ts';
export type {
  CallStatus,
  MessageStatus,
  SandboxCall,
  SandboxMessage,
  Spoken,
  TwilioFault,
  TwilioOptions,
  TwilioResource,
} from './twilio.ts';
export { PhoneActionError, TwilioSandbox } from './twilio.ts';
export { twilioSignature } from './twilio-webhook.ts';
export type {
  ComplianceTopic,
  CreateShopInput,
  DeliveryStatus,
  InventoryPolicy,
  ProductInput,
  ProductStatus,
  ShopifyDelivery,
  ShopifyInstallationView,
  ShopifyOptions,
  ShopifyProductView,
  ShopifyShopView,
  ShopifyThrottle,
  ShopifyVariantView,
  VariantInput,
} from './shopify.ts';
export { ShopifyActionError, ShopifySandbox } from './shopify.ts';
export { shopifyQueryHmac } from './shopify-oauth.ts';
export { shopifyWebhookHmac } from './shopify-webhooks.ts';
export type {
  AddCustomersInput,
  AdsCall,
  ApprovalStatus,
  CampaignPrimaryStatus,
  CampaignPrimaryStatusReason,
  CustomerStatus,
  GoogleAccessTokenView,
  GoogleAdView,
  GoogleCampaignView,
  GoogleCustomerDetail,
  GoogleCustomerView,
  GoogleOptions,
  GoogleQuotaView,
  GoogleUsage,
  GoogleUserView,
  PolicyTopic,
  PolicyTopicType,
  UsageCounter,
} from './google.ts';
export { DEFAULT_ADS_API_VERSION, GoogleActionError, GoogleAdsError, GoogleSandbox } from './google.ts';
export type {
  EffectiveStatus,
  IssueInfo,
  MetaAccountDetail,
  MetaAccountView,
  MetaAdSetView,
  MetaAdView,
  MetaCalls,
  MetaOptions,
  MetaTokenView,
  MetaUsage,
  MetaUserView,
} from './meta.ts';
export {
  ACCOUNT_STATUSES,
  appsecretProof,
  DISABLE_REASONS,
  EFFECTIVE_STATUSES,
  MetaActionError,
  MetaSandbox,
} from './meta.ts';
export type {
  AdvanceResult,
  CardUpdateOutcome,
  DeliveryTrigger,
  EventStatus,
  PayOutcome,
  StripeCardView,
  StripeCheckoutView,
  StripeCustomerView,
  StripeDelivery,
  StripeEventView,
  StripeInvoiceView,
  StripeOptions,
  StripePrice,
  StripePriceView,
  StripeSubscriptionView,
  TestCardInput,
} from './stripe.ts';
export { StripeActionError, StripeSandbox, stripeSignature, TEST_CARDS } from './stripe.ts';

export interface SandboxOptions {
  /** The origin the browser uses, e.g. http://localhost:3000; a function when it is known only after listening. */
  publicUrl: string | (() => string);
  /** Where the plugin is registered; the OpenID issuer is `${publicUrl}${basePath}/oidc`. */
  basePath?: string;
  /** 0 picks a free port. */
  smtpPort: number;
  smtpHost?: string;
  oidcClientId: string;
  oidcClientSecret: string;
  /** Defaults to `${publicUrl}/app/oauth`. */
  redirectUris?: string[];
  /** The Twilio account the stand-in plays; random credentials and +15005550006 when absent. */
  twilio?: TwilioOptions;
  /**
   * The Vigil app the Shopify stand-in knows: random credentials when absent. Defaults: appUrl
   * `${publicUrl}/shopify/install`, redirectUris [`${publicUrl}/app/oauth`], complianceWebhookUrl
   * `${publicUrl}/webhooks/shopify/compliance`.
   */
  shopify?: ShopifyOptions;
  /**
   * The Vigil app the Google stand-in knows (OAuth client and developer token): random when absent. Defaults:
   * redirectUris [`${publicUrl}/app/oauth`], pageSize 10000, dailyOperations 15000.
   */
  google?: GoogleOptions;
  /**
   * The Vigil app the Meta stand-in knows (app id and secret): random when absent. Defaults: redirectUris
   * [`${publicUrl}/app/oauth`], graphVersion v21.0, the development tier's ad-account budget per hour.
   */
  meta?: MetaOptions;
  /**
   * The Stripe account the stand-in plays (API key, webhook signing secret, prices): random keys and Vigil's
   * plans as `price_vigil_{plan}_{month|year}` when absent. Defaults: webhookUrl `${publicUrl}/webhooks/stripe`,
   * apiPort 0 (a free port).
   */
  stripe?: StripeOptions;
}

export interface Sandbox {
  plugin: FastifyPluginAsync;
  /** Starts the SMTP server and the Stripe API's listener (127.0.0.1); answers their ports. */
  start(): Promise<{ smtpPort: number; stripePort: number }>;
  stop(): Promise<void>;
  mailbox: Mailbox;
  oidc: { readonly issuer: string };
  /** The Twilio stand-in: its REST API is at `${publicUrl}${basePath}/twilio` (Twilio's https://api.twilio.com). */
  phone: TwilioSandbox;
  /**
   * The Shopify stand-in: each shop's base is `${publicUrl}${basePath}/shopify/shops/{shop}` (Shopify's
   * https://{shop}); the control page is `${basePath}/shopify` and the JSON API `${basePath}/api/shopify`.
   */
  shopify: ShopifySandbox;
  /**
   * The Google stand-in under `${publicUrl}${basePath}/google`: authorize `/o/oauth2/v2/auth`, `/token`,
   * `/revoke`, the Google Ads REST API `/ads/{version}`; the control page is `${basePath}/google` and the JSON
   * API `${basePath}/api/google`.
   */
  google: GoogleSandbox;
  /**
   * The Meta stand-in: the Facebook Login dialog at `${publicUrl}${basePath}/meta/www/{version}/dialog/oauth`
   * (Facebook's https://www.facebook.com), the Graph API at `${publicUrl}${basePath}/meta/graph` (Graph's
   * https://graph.facebook.com); the control page is `${basePath}/meta` and the JSON API `${basePath}/api/meta`.
   */
  meta: MetaSandbox;
  /**
   * The Stripe stand-in: its REST API at the root of its own listener, `http://127.0.0.1:{stripePort}/v1/…`
   * (Stripe's https://api.stripe.com; the SDK takes host, port and protocol but no base path); hosted Checkout
   * at `${publicUrl}${basePath}/stripe/checkout/{session}`, the customer portal at `…/stripe/portal/{session}`;
   * the control page is `${basePath}/stripe` and the JSON API `${basePath}/api/stripe`.
   */
  stripe: StripeSandbox;
}

/**
 * Local stand-ins of Vigil's providers, speaking their wire formats, for the embedded default and for tests.
 * Register `plugin` under `basePath` (default /sandbox) and call `start()` for the SMTP server and keys.
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const basePath = options.basePath ?? '/sandbox';
  const publicUrl = () =>
    (typeof options.publicUrl === 'function' ? options.publicUrl() : options.publicUrl).replace(/\/$/, '');
  const mailbox = new Mailbox();
  const smtp = createSmtpServer(mailbox);
  const oidc = new OidcProvider({
    issuer: () => `${publicUrl()}${basePath}/oidc`,
    clientId: options.oidcClientId,
    clientSecret: options.oidcClientSecret,
    redirectUris: () => options.redirectUris ?? [`${publicUrl()}/app/oauth`],
  });
  const phone = new TwilioSandbox(options.twilio ?? TwilioSandbox.generatedOptions(), publicUrl);
  const shopify = new ShopifySandbox(
    options.shopify ?? ShopifySandbox.generatedOptions(),
    publicUrl,
    basePath,
  );
  const google = new GoogleSandbox(options.google ?? GoogleSandbox.generatedOptions(), publicUrl, basePath);
  const meta = new MetaSandbox(options.meta ?? MetaSandbox.generatedOptions(), publicUrl, basePath);
  const stripe = new StripeSandbox(options.stripe ?? StripeSandbox.generatedOptions(), publicUrl, basePath);
  let listening = false;

  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(formbody);
    await app.register(async (scope) => oidc.register(scope), { prefix: '/oidc' });
    await app.register(async (scope) => registerTwilioRest(scope, phone), { prefix: '/twilio' });
    await app.register(async (scope) => registerTwilioApi(scope, phone), { prefix: '/api/twilio' });
    await app.register(
      async (scope) => {
        registerShopifyOAuth(scope, shopify);
        registerShopifyAdminApi(scope, shopify);
        registerShopifyStorefront(scope, shopify);
      },
      { prefix: '/shopify/shops/:shop' },
    );
    await app.register(async (scope) => registerShopifyApi(scope, shopify), { prefix: '/api/shopify' });
    await app.register(
      async (scope) =>
        registerGoogleOAuth(
          scope,
          google.oauth,
          () => google.adsUsers(),
          `${google.basePath}/o/oauth2/v2/auth`,
        ),
      { prefix: '/google' },
    );
    await app.register(async (scope) => registerGoogleAdsApi(scope, google.ads), { prefix: '/google' });
    await app.register(async (scope) => registerGoogleApi(scope, google), { prefix: '/api/google' });
    await app.register(async (scope) => registerMetaDialog(scope, meta, basePath), { prefix: '/meta/www' });
    await app.register(async (scope) => registerMetaGraph(scope, meta), { prefix: '/meta/graph' });
    await app.register(async (scope) => registerMetaApi(scope, meta), { prefix: '/api/meta' });
    await app.register(async (scope) => registerStripeApi(scope, stripe), { prefix: '/api/stripe' });
    registerPhonePage(app, phone, basePath);
    registerShopifyPage(app, shopify, basePath);
    registerGooglePage(app, google, basePath);
    registerMetaPage(app, meta, basePath);
    registerStripeCheckoutPage(app, stripe, basePath);
    registerStripePortalPage(app, stripe, basePath);
    registerStripePage(app, stripe, basePath);
    // The home page lists the mail and a line for each of the other stand-ins.
    const summaries = () =>
      `${phoneSummary(phone, basePath)}${shopifySummary(shopify, basePath)}${googleSummary(google, basePath)}${metaSummary(meta, basePath)}${stripeSummary(stripe, basePath)}`;
    registerMailRoutes(app, mailbox, basePath, () => oidc.issuer, options.oidcClientId, summaries);
    // A held request, a ringing call or a webhook retry must not keep a closing server waiting.
    app.addHook('preClose', async () => {
      phone.dispose();
      shopify.dispose();
      stripe.dispose();
    });
  };

  return {
    plugin,
    mailbox,
    oidc,
    phone,
    shopify,
    google,
    meta,
    stripe,
    async start() {
      await oidc.start();
      await new Promise<void>((resolve, reject) => {
        smtp.once('error', reject);
        smtp.listen(options.smtpPort, options.smtpHost ?? '127.0.0.1', () => {
          smtp.off('error', reject);
          resolve();
        });
      });
      listening = true;
      const stripePort = await stripe.start();
      return { smtpPort: (smtp.server.address() as AddressInfo).port, stripePort };
    },
    async stop() {
      phone.dispose();
      shopify.dispose();
      await stripe.stop();
      if (!listening) return;
      listening = false;
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

function registerMailRoutes(
  app: FastifyInstance,
  mailbox: Mailbox,
  basePath: string,
  issuer: () => string,
  clientId: string,
  summaries: () => string,
) {
  app.get<{ Querystring: { to?: string } }>('/api/mails', async (request) => ({
    data: { list: mailbox.list({ to: request.query.to }) },
  }));

  app.delete('/api/mails', async () => {
    mailbox.clear();
    return { data: null };
  });

  app.get('/', async (_request, reply) => {
    const mails = mailbox.list();
    const rows = mails
      .map(
        (mail) => `<tr>
<td>${escapeHtml(new Date(mail.receivedAt).toLocaleString('en-GB', { timeZone: 'UTC' }))} UTC</td>
<td>${escapeHtml(mail.to.join(', '))}</td>
<td><a href="${escapeHtml(`${basePath}/mail/${mail.id}`)}">${escapeHtml(mail.subject || '(no subject)')}</a></td>
</tr>`,
      )
      .join('\n');
    const list = mails.length
      ? `<table><caption class="muted" style="text-align:left">Newest first. <a href="">Refresh</a></caption>
<thead><tr><th scope="col">Received</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead>
<tbody>${rows}</tbody></table>`
      : '<p class="muted">No email yet. Emails Vigil sends (password reset codes, alerts) show up here. <a href="">Refresh</a></p>';
    return reply.type('text/html').send(
      page(
        'Vigil sandbox',
        `<section aria-labelledby="mail-heading"><h1 id="mail-heading">Email</h1>${list}</section>
<section aria-labelledby="oidc-heading"><h2 id="oidc-heading">OpenID provider</h2>
<p>"Sign in with Google" goes to this stand-in while no real provider is configured.</p>
<p>Issuer <code>${escapeHtml(issuer())}</code>, client <code>${escapeHtml(clientId)}</code>.</p></section>
${summaries()}`,
      ),
    );
  });

  app.get<{ Params: { id: string } }>('/mail/:id', async (request, reply) => {
    const mail = mailbox.get(request.params.id);
    if (!mail) {
      return reply
        .code(404)
        .type('text/html')
        .send(
          page(
            'Email not found',
            `<section><h1>Email not found</h1><p>It may have been cleared. <a href="${basePath}">Back to the sandbox</a></p></section>`,
          ),
        );
    }
    return reply.type('text/html').send(page(mail.subject, mailView(mail, basePath)));
  });
}

function mailView(mail: Mail, basePath: string): string {
  const html = mail.html
    ? `<h2>HTML</h2><iframe title="HTML body" sandbox="" srcdoc="${escapeHtml(mail.html)}"></iframe>`
    : '';
  return `<section>
<p><a href="${basePath}">← All email</a></p>
<h1>${escapeHtml(mail.subject || '(no subject)')}</h1>
<p><strong>From</strong> ${escapeHtml(mail.from)}<br><strong>To</strong> ${escapeHtml(mail.to.join(', '))}<br>
<strong>Received</strong> ${escapeHtml(mail.receivedAt)}<br><strong>Message-ID</strong> ${escapeHtml(mail.messageId)}</p>
<h2>Text</h2><pre>${escapeHtml(mail.text)}</pre>
${html}
</section>`;
}
