import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BILLING_PERIODS, type BillingPeriod } from '@vigil/contracts';
import { z } from 'zod';
import { PLAN_CATALOGUE } from './modules/plans/plan-catalogue.ts';

const PAID_PLANS = PLAN_CATALOGUE.filter((plan) => plan.checkout).map((plan) => plan.name);

/** The only value of SANDBOX_ALLOW_PUBLIC that lets the sandbox run where others can reach it. */
export const SANDBOX_PUBLIC_CONSENT = 'i-understand-anyone-can-read-all-mail';

/**
 * Every setting the server reads, with its default and meaning. This is the only module that reads
 * process.env; the README's settings table is copied from here.
 */
export const SETTINGS = [
  { name: 'PORT', default: '3000', meaning: 'TCP port the HTTP server listens on.' },
  {
    name: 'HOST',
    default: 'localhost',
    meaning:
      'Address to listen on; localhost listens on each address it resolves to (127.0.0.1 and ::1 on most systems). Use 0.0.0.0 in a container.',
  },
  {
    name: 'PUBLIC_URL',
    default: 'http://localhost:${PORT}',
    meaning:
      'The origin browsers use to reach Vigil; used in emails, the OpenID redirect URI and the sandbox issuer.',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset)',
    meaning:
      'PostgreSQL connection string. Unset: embedded PGlite under ${DATA_DIR}/pglite (one process only).',
  },
  {
    name: 'DATA_DIR',
    default: './data',
    meaning: 'Folder for embedded data (PGlite). Created when missing.',
  },
  {
    name: 'ROLE',
    default: 'all',
    meaning:
      'all: HTTP API and background workers in one process; api: HTTP only (enqueues jobs); worker: jobs only, no HTTP. api and worker need DATABASE_URL. `--role=` on the command line wins.',
  },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent.' },
  {
    name: 'LOG_FORMAT',
    default: 'json (npm start in a terminal: pretty)',
    meaning: 'json: one JSON object per line, for log collectors; pretty: readable lines for a person.',
  },
  {
    name: 'SANDBOX',
    default: 'on',
    meaning:
      'on: run the local provider stand-ins (SMTP server, OpenID provider) in this process under /sandbox. Not started by ROLE=worker.',
  },
  {
    name: 'SANDBOX_ALLOW_PUBLIC',
    default: '(unset)',
    meaning: `${SANDBOX_PUBLIC_CONSENT}: start with SANDBOX=on although HOST or PUBLIC_URL reaches beyond this machine. Anyone who reaches Vigil then reads every email (reset codes included), grants plans and knows the Twilio token. Unset: Vigil refuses to start that way.`,
  },
  { name: 'SANDBOX_SMTP_PORT', default: '2525', meaning: 'Port of the sandbox SMTP server (127.0.0.1).' },
  {
    name: 'SMTP_URL',
    default: 'smtp://127.0.0.1:${SANDBOX_SMTP_PORT}',
    meaning: 'Where email is sent (nodemailer URL, e.g. smtps://user:pass@smtp.example.com:465).',
  },
  { name: 'MAIL_FROM', default: 'Vigil <alerts@vigil.local>', meaning: 'From address of every email.' },
  {
    name: 'OIDC_ISSUER',
    default: '${PUBLIC_URL}/sandbox/oidc when SANDBOX=on, else unset',
    meaning:
      'OpenID Connect issuer for "Sign in with Google" (https://accounts.google.com for Google). Unset with SANDBOX=off: OpenID sign-in is off.',
  },
  { name: 'OIDC_CLIENT_ID', default: 'vigil-local', meaning: 'OpenID client id registered with the issuer.' },
  { name: 'OIDC_CLIENT_SECRET', default: 'vigil-local-secret', meaning: 'OpenID client secret.' },
  {
    name: 'WEB_DIST',
    default: 'apps/web/dist (found from the server’s own location)',
    meaning: 'Folder of the built web app, served under /app.',
  },
  {
    name: 'SESSION_TTL_DAYS',
    default: '30',
    meaning: 'A session ends this many days after it was last used.',
  },
  {
    name: 'TRUST_PROXY',
    default: 'off',
    meaning:
      'on (one proxy) or the number of proxies in front of Vigil: the client address is the one X-Forwarded-For holds that many hops from the connection, i.e. the one your own proxy appended — never the left-most entry, which a client writes. Set it behind a reverse proxy, or every visitor shares the proxy’s sign-in and registration limits.',
  },
  {
    name: 'CHECK_CONCURRENCY',
    default: '50',
    meaning:
      'Checks one worker process runs at the same time (ROLE=all or worker). More processes add up; each check holds one outgoing connection.',
  },
  {
    name: 'CHECK_BATCH_SIZE',
    default: '100',
    meaning:
      'Due monitors one worker claims per database statement, and check results it writes per statement.',
  },
  {
    name: 'RESULT_RETENTION_HOURS',
    default: '48',
    meaning:
      'Raw check results are kept this long; older ones survive only as hourly roll-ups (checks, failures, latency percentiles).',
  },
  {
    name: 'TWILIO_ACCOUNT_SID',
    default: 'the sandbox account when SANDBOX=on, else unset',
    meaning:
      'Twilio account SID (AC…) for SMS and call alerts. Unset with SANDBOX=off: the SMS and call channels are off.',
  },
  {
    name: 'TWILIO_AUTH_TOKEN',
    default: 'the sandbox token',
    meaning: 'Twilio auth token: signs API calls and checks X-Twilio-Signature on webhooks.',
  },
  {
    name: 'TWILIO_FROM_NUMBER',
    default: '+15005550006',
    meaning:
      'The Twilio number (E.164) SMS and calls come from; point its incoming-SMS webhook at ${PUBLIC_URL}/webhooks/twilio/inbound-sms.',
  },
  {
    name: 'TWILIO_API_URL',
    default: '${PUBLIC_URL}/sandbox/twilio with the sandbox account, else https://api.twilio.com',
    meaning: 'Base URL of Twilio’s REST API.',
  },
  {
    name: 'SHOPIFY_CLIENT_ID',
    default: 'the sandbox app when SANDBOX=on, else unset',
    meaning:
      'Client id of your Shopify app (Partner Dashboard → Apps → Client credentials). Unset with SANDBOX=off: Shopify monitors are off.',
  },
  {
    name: 'SHOPIFY_CLIENT_SECRET',
    default: 'the sandbox app’s secret',
    meaning:
      'The app’s client secret: signs the OAuth return (hmac) and every webhook (X-Shopify-Hmac-Sha256).',
  },
  {
    name: 'SHOPIFY_SCOPES',
    default: 'read_products,read_inventory',
    meaning: 'Access scopes Vigil asks a shop for.',
  },
  {
    name: 'SHOPIFY_SHOP_URL',
    default: 'https://{shop}; with the sandbox app, ${PUBLIC_URL}/sandbox/shopify/shops/{shop}',
    meaning:
      'Where a shop’s Admin API, OAuth pages and storefront are, with {shop} for its myshopify domain.',
  },
  {
    name: 'SHOPIFY_API_VERSION',
    default: '2025-01',
    meaning: 'Admin GraphQL API version Vigil speaks.',
  },
  {
    name: 'GOOGLE_ADS_CLIENT_ID',
    default: 'the sandbox app when SANDBOX=on, else unset',
    meaning:
      'OAuth client id of your Google Cloud project (APIs & Services → Credentials → OAuth client, type Web application; redirect URI ${PUBLIC_URL}/app/oauth). Unset with SANDBOX=off: Google Ads monitors are off.',
  },
  {
    name: 'GOOGLE_ADS_CLIENT_SECRET',
    default: 'the sandbox app’s secret',
    meaning: 'That OAuth client’s secret.',
  },
  {
    name: 'GOOGLE_ADS_DEVELOPER_TOKEN',
    default: 'the sandbox token',
    meaning:
      'Your Google Ads developer token (Google Ads → Tools → API Center), sent as `developer-token` on every API call. Required with GOOGLE_ADS_CLIENT_ID.',
  },
  {
    name: 'GOOGLE_ADS_API_VERSION',
    default: 'v21',
    meaning: 'Google Ads API version Vigil speaks.',
  },
  {
    name: 'GOOGLE_ADS_API_URL',
    default: 'https://googleads.googleapis.com; with the sandbox app, ${PUBLIC_URL}/sandbox/google/ads',
    meaning: 'Base URL of the Google Ads REST API.',
  },
  {
    name: 'GOOGLE_OAUTH_AUTHORIZE_URL',
    default:
      'https://accounts.google.com/o/oauth2/v2/auth; with the sandbox app, ${PUBLIC_URL}/sandbox/google/o/oauth2/v2/auth',
    meaning: 'Google’s OAuth 2.0 authorization endpoint.',
  },
  {
    name: 'GOOGLE_OAUTH_TOKEN_URL',
    default: 'https://oauth2.googleapis.com/token; with the sandbox app, ${PUBLIC_URL}/sandbox/google/token',
    meaning: 'Google’s OAuth 2.0 token endpoint (code exchange and refresh).',
  },
  {
    name: 'META_APP_ID',
    default: 'the sandbox app when SANDBOX=on, else unset',
    meaning:
      'App id of your Meta app (developers.facebook.com → your app → App settings → Basic), with Facebook Login (valid OAuth redirect URI ${PUBLIC_URL}/app/oauth) and the Marketing API. Unset with SANDBOX=off: Meta ads monitors are off.',
  },
  {
    name: 'META_APP_SECRET',
    default: 'the sandbox app’s secret',
    meaning: 'The app secret: exchanges codes for tokens and signs each Graph call (appsecret_proof).',
  },
  {
    name: 'META_GRAPH_VERSION',
    default: 'v21.0',
    meaning: 'Graph API version Vigil speaks.',
  },
  {
    name: 'META_GRAPH_URL',
    default: 'https://graph.facebook.com; with the sandbox app, ${PUBLIC_URL}/sandbox/meta/graph',
    meaning: 'Base URL of the Graph API.',
  },
  {
    name: 'META_DIALOG_URL',
    default: 'https://www.facebook.com; with the sandbox app, ${PUBLIC_URL}/sandbox/meta/www',
    meaning: 'Where the Facebook Login dialog is (`/{version}/dialog/oauth`).',
  },
  {
    name: 'SANDBOX_STRIPE_PORT',
    default: '12111',
    meaning: 'Port of the sandbox Stripe API (127.0.0.1), which the stripe SDK reaches with SANDBOX=on.',
  },
  {
    name: 'STRIPE_SECRET_KEY',
    default: 'the sandbox account when SANDBOX=on, else unset',
    meaning:
      'Stripe secret key (sk_live_… or sk_test_…, or a restricted key with Checkout, Customers, Subscriptions and Billing portal write access). Unset with SANDBOX=off: paid plans are not offered.',
  },
  {
    name: 'STRIPE_WEBHOOK_SECRET',
    default: 'the sandbox secret',
    meaning:
      'Signing secret (whsec_…) of the webhook endpoint ${PUBLIC_URL}/webhooks/stripe, listening to checkout.session.completed, checkout.session.expired, invoice.paid, invoice.payment_failed, customer.subscription.updated and customer.subscription.deleted.',
  },
  {
    name: 'STRIPE_PRICES',
    default: 'the sandbox’s prices',
    meaning:
      'The Stripe price of each paid plan and period, as `Plan:period=price_id` separated by commas, e.g. `Starter:month=price_1Q…,Starter:year=price_1R…,Pro:month=…`. Every paid plan needs both periods.',
  },
  {
    name: 'STRIPE_API_URL',
    default: 'https://api.stripe.com; with the sandbox account, http://127.0.0.1:${SANDBOX_STRIPE_PORT}',
    meaning: 'Where the stripe SDK sends API calls (its host, port and protocol).',
  },
  {
    name: 'TOKEN_ENCRYPTION_KEYS',
    default:
      'embedded: a key made once in ${DATA_DIR}/token-encryption.key; on PostgreSQL: required for Shopify, Google Ads and Meta',
    meaning:
      'Keys that encrypt connected accounts’ tokens at rest (AES-256-GCM): `id:base64-of-32-bytes`, comma-separated. The first encrypts; every one listed decrypts (add a new key first to rotate).',
  },
] as const;

/** The sandbox's Shopify app: used when SANDBOX=on and no SHOPIFY_CLIENT_ID is set. */
export const SANDBOX_SHOPIFY = {
  clientId: 'vigil-sandbox-shopify-app',
  clientSecret: 'vigil-sandbox-shopify-secret',
} as const;

/** The sandbox's Google Ads app: used when SANDBOX=on and no GOOGLE_ADS_CLIENT_ID is set. */
export const SANDBOX_GOOGLE_ADS = {
  clientId: 'vigil-sandbox-google-ads.apps.googleusercontent.com',
  clientSecret: 'vigil-sandbox-google-ads-secret',
  developerToken: 'vigil-sandbox-developer-token',
} as const;

/** The sandbox's Meta app: used when SANDBOX=on and no META_APP_ID is set. */
export const SANDBOX_META = {
  appId: '900000000000001',
  appSecret: 'vigil-sandbox-meta-app-secret',
} as const;

/** The sandbox's Stripe account: used when SANDBOX=on and no STRIPE_SECRET_KEY is set. */
export const SANDBOX_STRIPE = {
  secretKey: 'sk_test_vigil_sandbox',
  webhookSecret: 'whsec_vigil_sandbox_signing_secret',
} as const;

/** The price id the sandbox creates for a plan and period: `price_vigil_pro_month`. */
export function sandboxPriceId(plan: string, period: BillingPeriod): string {
  return `price_vigil_${plan.toLowerCase()}_${period}`;
}

/** The sandbox's Twilio account: used when SANDBOX=on and no TWILIO_ACCOUNT_SID is set. */
export const SANDBOX_TWILIO = {
  accountSid: 'AC5a4db0c5a4db0c5a4db0c5a4db0c5a4d',
  authToken: 'vigil-sandbox-twilio-auth-token',
} as const;

export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const onOff = (name: string, fallback: 'on' | 'off') =>
  z
    .enum(['on', 'off', 'true', 'false', '1', '0'], { error: `${name} must be on or off.` })
    .default(fallback)
    .transform((value) => value === 'on' || value === 'true' || value === '1');

const port = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a port number.` })
    .int(`${name} must be a whole number.`)
    .min(0, `${name} must be between 0 and 65535.`)
    .max(65535, `${name} must be between 0 and 65535.`)
    .default(fallback);

const count = (name: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number.` })
    .int(`${name} must be a whole number.`)
    .min(min, `${name} must be at least ${min}.`)
    .max(max, `${name} must be at most ${max}.`)
    .default(fallback);

const url = (name: string, protocols: RegExp, example: string) =>
  z
    .url({ error: `${name} must be a URL, like ${example}.` })
    .refine((value) => protocols.test(new URL(value).protocol), `${name} must be a URL, like ${example}.`);

const optionalText = z
  .string()
  .transform((value) => value.trim())
  .optional()
  .transform((value) => (value ? value : undefined));

const envSchema = z.object({
  PORT: port('PORT', 3000),
  HOST: z.string().trim().min(1).default('localhost'),
  PUBLIC_URL: optionalText.pipe(url('PUBLIC_URL', /^https?:$/, 'https://vigil.example.com').optional()),
  DATABASE_URL: optionalText.pipe(
    url('DATABASE_URL', /^postgres(ql)?:$/, 'postgres://user:password@host:5432/vigil').optional(),
  ),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  ROLE: z.enum(ROLES, { error: 'ROLE must be all, api or worker.' }).default('all'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}.` })
    .default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'LOG_FORMAT must be json or pretty.' }).default('json'),
  SANDBOX: onOff('SANDBOX', 'on'),
  SANDBOX_ALLOW_PUBLIC: optionalText,
  SANDBOX_SMTP_PORT: port('SANDBOX_SMTP_PORT', 2525),
  SMTP_URL: optionalText.pipe(url('SMTP_URL', /^smtps?:$/, 'smtp://127.0.0.1:2525').optional()),
  MAIL_FROM: z.string().trim().min(3).default('Vigil <alerts@vigil.local>'),
  OIDC_ISSUER: optionalText.pipe(url('OIDC_ISSUER', /^https?:$/, 'https://accounts.google.com').optional()),
  OIDC_CLIENT_ID: z.string().trim().min(1).default('vigil-local'),
  OIDC_CLIENT_SECRET: z.string().min(1).default('vigil-local-secret'),
  WEB_DIST: optionalText,
  SESSION_TTL_DAYS: z.coerce
    .number({ error: 'SESSION_TTL_DAYS must be a number of days.' })
    .int('SESSION_TTL_DAYS must be a whole number of days.')
    .min(1, 'SESSION_TTL_DAYS must be at least 1.')
    .max(365, 'SESSION_TTL_DAYS must be at most 365.')
    .default(30),
  TRUST_PROXY: z
    .string()
    .trim()
    .toLowerCase()
    .default('off')
    .refine((value) => /^(?:on|off|true|false|[0-9]|10)$/.test(value), {
      error: 'TRUST_PROXY must be off, on (one proxy) or the number of proxies in front of Vigil (0–10).',
    })
    .transform((value) => {
      if (value === 'on' || value === 'true') return 1;
      if (value === 'off' || value === 'false') return 0;
      return Number(value);
    }),
  CHECK_CONCURRENCY: count('CHECK_CONCURRENCY', 1, 5000, 50),
  CHECK_BATCH_SIZE: count('CHECK_BATCH_SIZE', 1, 1000, 100),
  RESULT_RETENTION_HOURS: count('RESULT_RETENTION_HOURS', 2, 24 * 90, 48),
  TWILIO_ACCOUNT_SID: optionalText.pipe(
    z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal digits.')
      .optional(),
  ),
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM_NUMBER: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, 'TWILIO_FROM_NUMBER must be a phone number in E.164, like +15005550006.')
    .default('+15005550006'),
  TWILIO_API_URL: optionalText.pipe(url('TWILIO_API_URL', /^https?:$/, 'https://api.twilio.com').optional()),
  SHOPIFY_CLIENT_ID: optionalText,
  SHOPIFY_CLIENT_SECRET: optionalText,
  SHOPIFY_SCOPES: z
    .string()
    .trim()
    .regex(
      /^[a-z_]+(,[a-z_]+)*$/,
      'SHOPIFY_SCOPES must be scopes separated by commas, like read_products,read_inventory.',
    )
    .default('read_products,read_inventory'),
  SHOPIFY_SHOP_URL: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => value.includes('{shop}') && /^https?:\/\//.test(value),
        'SHOPIFY_SHOP_URL must be an http(s) URL with {shop} in it, like https://{shop}.',
      )
      .optional(),
  ),
  SHOPIFY_API_VERSION: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}$/, 'SHOPIFY_API_VERSION must be a version like 2025-01.')
    .default('2025-01'),
  GOOGLE_ADS_CLIENT_ID: optionalText,
  GOOGLE_ADS_CLIENT_SECRET: optionalText,
  GOOGLE_ADS_DEVELOPER_TOKEN: optionalText,
  GOOGLE_ADS_API_VERSION: z
    .string()
    .trim()
    .regex(/^v\d+$/, 'GOOGLE_ADS_API_VERSION must be a version like v21.')
    .default('v21'),
  GOOGLE_ADS_API_URL: optionalText.pipe(
    url('GOOGLE_ADS_API_URL', /^https?:$/, 'https://googleads.googleapis.com').optional(),
  ),
  GOOGLE_OAUTH_AUTHORIZE_URL: optionalText.pipe(
    url('GOOGLE_OAUTH_AUTHORIZE_URL', /^https?:$/, 'https://accounts.google.com/o/oauth2/v2/auth').optional(),
  ),
  GOOGLE_OAUTH_TOKEN_URL: optionalText.pipe(
    url('GOOGLE_OAUTH_TOKEN_URL', /^https?:$/, 'https://oauth2.googleapis.com/token').optional(),
  ),
  META_APP_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{5,20}$/, 'META_APP_ID must be your Meta app’s numeric id.')
      .optional(),
  ),
  META_APP_SECRET: optionalText,
  META_GRAPH_VERSION: z
    .string()
    .trim()
    .regex(/^v\d+\.\d+$/, 'META_GRAPH_VERSION must be a version like v21.0.')
    .default('v21.0'),
  META_GRAPH_URL: optionalText.pipe(
    url('META_GRAPH_URL', /^https?:$/, 'https://graph.facebook.com').optional(),
  ),
  META_DIALOG_URL: optionalText.pipe(
    url('META_DIALOG_URL', /^https?:$/, 'https://www.facebook.com').optional(),
  ),
  SANDBOX_STRIPE_PORT: port('SANDBOX_STRIPE_PORT', 12111),
  STRIPE_SECRET_KEY: optionalText.pipe(
    z
      .string()
      .regex(
        /^(sk|rk)_(live|test)_\w+$/,
        'STRIPE_SECRET_KEY must be a secret key, like sk_live_… or rk_live_….',
      )
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .regex(/^whsec_\w+$/, 'STRIPE_WEBHOOK_SECRET must be a signing secret, like whsec_….')
      .optional(),
  ),
  STRIPE_PRICES: optionalText,
  STRIPE_API_URL: optionalText.pipe(url('STRIPE_API_URL', /^https?:$/, 'https://api.stripe.com').optional()),
  TOKEN_ENCRYPTION_KEYS: optionalText,
});

export interface ShopifySettings {
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** With `{shop}` for the shop's myshopify domain: `https://{shop}`, or the sandbox's shops. */
  shopUrl: string;
  apiVersion: string;
}

export interface GoogleAdsSettings {
  clientId: string;
  clientSecret: string;
  developerToken: string;
  apiVersion: string;
  /** Base of the REST API, without the version: `https://googleads.googleapis.com`. */
  apiUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
}

export interface MetaSettings {
  appId: string;
  appSecret: string;
  graphVersion: string;
  /** `https://graph.facebook.com`, without the version. */
  graphUrl: string;
  /** `https://www.facebook.com`: the login dialog is `${dialogUrl}/${graphVersion}/dialog/oauth`. */
  dialogUrl: string;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** `https://api.stripe.com`, or the sandbox's listener: the SDK's protocol, host and port. */
  apiUrl: string;
  /** The price id of each paid plan and period, keyed `Plan:period` (`Pro:year`). */
  prices: Record<string, string>;
  /** True when the sandbox plays the Stripe account (it creates the prices itself). */
  sandbox: boolean;
}

export interface TwilioSettings {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  fromNumber: string;
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Unset: embedded PGlite. */
  databaseUrl: string | undefined;
  dataDir: string;
  role: Role;
  logLevel: (typeof LOG_LEVELS)[number];
  logFormat: 'json' | 'pretty';
  sandbox: boolean;
  /** The sandbox runs where others can reach it, by SANDBOX_ALLOW_PUBLIC's consent: main.ts warns at start. */
  sandboxPublic: boolean;
  sandboxSmtpPort: number;
  smtpUrl: string;
  mailFrom: string;
  /** Null when OpenID sign-in is off. */
  oidc: OidcSettings | null;
  webDist: string;
  sessionTtlDays: number;
  /** Proxies in front of Vigil whose X-Forwarded-For entries count (0: none; the socket's address is the client). */
  trustProxy: number;
  checkConcurrency: number;
  checkBatchSize: number;
  resultRetentionHours: number;
  /** Null when SMS and call alerts are off (no Twilio account and no sandbox). */
  twilio: TwilioSettings | null;
  /** Null when Shopify monitors are off (no Shopify app and no sandbox). */
  shopify: ShopifySettings | null;
  /** Null when Google Ads monitors are off (no Google app and no sandbox). */
  googleAds: GoogleAdsSettings | null;
  /** Null when Meta ads monitors are off (no Meta app and no sandbox). */
  meta: MetaSettings | null;
  /** Null when paid plans are off (no Stripe account and no sandbox). */
  stripe: StripeSettings | null;
  sandboxStripePort: number;
  /** TOKEN_ENCRYPTION_KEYS as given; main.ts falls back to a key file in the data folder when embedded. */
  tokenEncryptionKeys: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Vigil cannot start; fix these settings:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** `--role=worker` (or `--role worker`) on the command line wins over ROLE. */
export function roleFromArgs(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--role=')) return arg.slice('--role='.length);
    if (arg === '--role') return argv[i + 1];
  }
  return undefined;
}

/** Reads and checks every setting at once, so a bad start lists all problems instead of the first. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  argv: readonly string[] = process.argv.slice(2),
): Config {
  // An empty variable (PORT=) means "use the default", as if it were unset.
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const role = roleFromArgs(argv);
  const parsed = envSchema.safeParse(role === undefined ? given : { ...given, ROLE: role });
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => problemOf(issue, env)));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    problems.push(
      `ROLE=${e.ROLE} needs DATABASE_URL: the embedded database lives inside one process, so split roles must share PostgreSQL.`,
    );
  }
  if (e.TWILIO_ACCOUNT_SID && !e.TWILIO_AUTH_TOKEN) {
    problems.push('TWILIO_ACCOUNT_SID is set without TWILIO_AUTH_TOKEN: set both, or neither.');
  }
  if (Boolean(e.SHOPIFY_CLIENT_ID) !== Boolean(e.SHOPIFY_CLIENT_SECRET)) {
    problems.push('SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET go together: set both, or neither.');
  }
  if (
    [e.GOOGLE_ADS_CLIENT_ID, e.GOOGLE_ADS_CLIENT_SECRET, e.GOOGLE_ADS_DEVELOPER_TOKEN].some(Boolean) &&
    ![e.GOOGLE_ADS_CLIENT_ID, e.GOOGLE_ADS_CLIENT_SECRET, e.GOOGLE_ADS_DEVELOPER_TOKEN].every(Boolean)
  ) {
    problems.push(
      'GOOGLE_ADS_CLIENT_ID, GOOGLE_ADS_CLIENT_SECRET and GOOGLE_ADS_DEVELOPER_TOKEN go together: set all three, or none.',
    );
  }
  if (Boolean(e.META_APP_ID) !== Boolean(e.META_APP_SECRET)) {
    problems.push('META_APP_ID and META_APP_SECRET go together: set both, or neither.');
  }
  const apps = [
    e.SHOPIFY_CLIENT_ID && 'A Shopify app',
    e.GOOGLE_ADS_CLIENT_ID && 'A Google Ads app',
    e.META_APP_ID && 'A Meta app',
  ].filter(Boolean);
  if (apps.length && e.DATABASE_URL && !e.TOKEN_ENCRYPTION_KEYS) {
    problems.push(
      `${apps.join(', ')} on PostgreSQL needs TOKEN_ENCRYPTION_KEYS (id:base64 of 32 random bytes), shared by every process, to encrypt account tokens.`,
    );
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together: set both, or neither.');
  }
  const prices = stripePrices(e.STRIPE_PRICES, problems, Boolean(e.STRIPE_SECRET_KEY));
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const sandboxPublic = sandboxExposure(e, publicUrl, problems);
  if (problems.length) throw new ConfigError(problems);

  const issuer = e.OIDC_ISSUER ?? (e.SANDBOX ? `${publicUrl}/sandbox/oidc` : undefined);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    role: e.ROLE,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    sandbox: e.SANDBOX,
    sandboxPublic,
    sandboxSmtpPort: e.SANDBOX_SMTP_PORT,
    smtpUrl: e.SMTP_URL ?? `smtp://127.0.0.1:${e.SANDBOX_SMTP_PORT}`,
    mailFrom: e.MAIL_FROM,
    oidc: issuer
      ? { issuer: issuer.replace(/\/+$/, ''), clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
      : null,
    webDist: e.WEB_DIST ? resolve(e.WEB_DIST) : DEFAULT_WEB_DIST,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    trustProxy: e.TRUST_PROXY,
    checkConcurrency: e.CHECK_CONCURRENCY,
    checkBatchSize: e.CHECK_BATCH_SIZE,
    resultRetentionHours: e.RESULT_RETENTION_HOURS,
    twilio: twilioSettings(e, publicUrl),
    shopify: shopifySettings(e, publicUrl),
    googleAds: googleAdsSettings(e, publicUrl),
    meta: metaSettings(e, publicUrl),
    stripe: stripeSettings(e, prices),
    sandboxStripePort: e.SANDBOX_STRIPE_PORT,
    tokenEncryptionKeys: e.TOKEN_ENCRYPTION_KEYS,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * The sandbox shows every email (reset codes included) without a session, grants plans and plays a Twilio
 * account whose token is public: fine on one's own machine, an open door anywhere else. So the sandbox runs
 * only where nobody else can reach it, unless SANDBOX_ALLOW_PUBLIC carries its consent. A worker serves no
 * HTTP, so only HOST and PUBLIC_URL of the process hosting the sandbox matter. Returns whether the sandbox
 * runs exposed by consent, for main.ts to warn about.
 */
function sandboxExposure(e: z.infer<typeof envSchema>, publicUrl: string, problems: string[]): boolean {
  if (e.SANDBOX_ALLOW_PUBLIC !== undefined && e.SANDBOX_ALLOW_PUBLIC !== SANDBOX_PUBLIC_CONSENT) {
    problems.push(
      `SANDBOX_ALLOW_PUBLIC must be unset or exactly ${SANDBOX_PUBLIC_CONSENT} (got something else).`,
    );
    return false;
  }
  if (!e.SANDBOX || e.ROLE === 'worker') return false;
  const publicHost = new URL(publicUrl).hostname.toLowerCase();
  const beyond = [
    !LOOPBACK_HOSTS.has(e.HOST.toLowerCase()) && `HOST=${e.HOST} listens beyond this machine`,
    !LOOPBACK_HOSTS.has(publicHost) &&
      !publicHost.endsWith('.localhost') &&
      `PUBLIC_URL=${publicUrl} is not a local address`,
  ].filter(Boolean);
  if (!beyond.length) return false;
  if (e.SANDBOX_ALLOW_PUBLIC === SANDBOX_PUBLIC_CONSENT) return true;
  problems.push(
    `SANDBOX=on but ${beyond.join(' and ')}: the sandbox would show everyone's mail and reset codes, grant plans and use a publicly known Twilio token to anyone who reaches it. Set SANDBOX=off with real providers, listen on localhost only, or (for a throwaway demo) set SANDBOX_ALLOW_PUBLIC=${SANDBOX_PUBLIC_CONSENT}.`,
  );
  return false;
}

function shopifySettings(e: z.infer<typeof envSchema>, publicUrl: string): ShopifySettings | null {
  const common = { scopes: e.SHOPIFY_SCOPES.split(','), apiVersion: e.SHOPIFY_API_VERSION };
  if (e.SHOPIFY_CLIENT_ID && e.SHOPIFY_CLIENT_SECRET) {
    return {
      ...common,
      clientId: e.SHOPIFY_CLIENT_ID,
      clientSecret: e.SHOPIFY_CLIENT_SECRET,
      shopUrl: e.SHOPIFY_SHOP_URL ?? 'https://{shop}',
    };
  }
  if (!e.SANDBOX) return null;
  return {
    ...common,
    ...SANDBOX_SHOPIFY,
    shopUrl: e.SHOPIFY_SHOP_URL ?? `${publicUrl}/sandbox/shopify/shops/{shop}`,
  };
}

function googleAdsSettings(e: z.infer<typeof envSchema>, publicUrl: string): GoogleAdsSettings | null {
  const sandbox = `${publicUrl}/sandbox/google`;
  const real = Boolean(e.GOOGLE_ADS_CLIENT_ID && e.GOOGLE_ADS_CLIENT_SECRET && e.GOOGLE_ADS_DEVELOPER_TOKEN);
  if (!real && !e.SANDBOX) return null;
  const app = real
    ? {
        clientId: e.GOOGLE_ADS_CLIENT_ID!,
        clientSecret: e.GOOGLE_ADS_CLIENT_SECRET!,
        developerToken: e.GOOGLE_ADS_DEVELOPER_TOKEN!,
      }
    : { ...SANDBOX_GOOGLE_ADS };
  const strip = (value: string) => value.replace(/\/+$/, '');
  return {
    ...app,
    apiVersion: e.GOOGLE_ADS_API_VERSION,
    apiUrl: strip(e.GOOGLE_ADS_API_URL ?? (real ? 'https://googleads.googleapis.com' : `${sandbox}/ads`)),
    authorizeUrl:
      e.GOOGLE_OAUTH_AUTHORIZE_URL ??
      (real ? 'https://accounts.google.com/o/oauth2/v2/auth' : `${sandbox}/o/oauth2/v2/auth`),
    tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL ?? (real ? 'https://oauth2.googleapis.com/token' : `${sandbox}/token`),
  };
}

function metaSettings(e: z.infer<typeof envSchema>, publicUrl: string): MetaSettings | null {
  const sandbox = `${publicUrl}/sandbox/meta`;
  const real = Boolean(e.META_APP_ID && e.META_APP_SECRET);
  if (!real && !e.SANDBOX) return null;
  const strip = (value: string) => value.replace(/\/+$/, '');
  return {
    ...(real ? { appId: e.META_APP_ID!, appSecret: e.META_APP_SECRET! } : { ...SANDBOX_META }),
    graphVersion: e.META_GRAPH_VERSION,
    graphUrl: strip(e.META_GRAPH_URL ?? (real ? 'https://graph.facebook.com' : `${sandbox}/graph`)),
    dialogUrl: strip(e.META_DIALOG_URL ?? (real ? 'https://www.facebook.com' : `${sandbox}/www`)),
  };
}

/** `Plan:period=price_id,…` → `{ 'Plan:period': price_id }`; every paid plan needs both periods when given. */
function stripePrices(
  value: string | undefined,
  problems: string[],
  required: boolean,
): Record<string, string> | undefined {
  if (!value) {
    if (required) problems.push(`STRIPE_SECRET_KEY needs STRIPE_PRICES: ${PRICE_EXAMPLE}.`);
    return undefined;
  }
  const prices: Record<string, string> = {};
  for (const entry of value.split(',').map((part) => part.trim())) {
    const match = /^([A-Za-z]+):(month|year)=(\w+)$/.exec(entry);
    const plan = match && PAID_PLANS.find((name) => name.toLowerCase() === match[1]!.toLowerCase());
    if (!match || !plan) {
      problems.push(
        `STRIPE_PRICES: "${entry}" is not Plan:period=price_id for a paid plan (${PAID_PLANS.join(', ')}).`,
      );
      continue;
    }
    prices[`${plan}:${match[2]}`] = match[3]!;
  }
  const missing = PAID_PLANS.flatMap((plan) => BILLING_PERIODS.map((period) => `${plan}:${period}`)).filter(
    (key) => !prices[key],
  );
  if (missing.length) problems.push(`STRIPE_PRICES has no price for ${missing.join(', ')}.`);
  return prices;
}

const PRICE_EXAMPLE = 'Starter:month=price_…,Starter:year=price_…, and so on for every paid plan';

function stripeSettings(
  e: z.infer<typeof envSchema>,
  prices: Record<string, string> | undefined,
): StripeSettings | null {
  if (e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET && prices) {
    return {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiUrl: (e.STRIPE_API_URL ?? 'https://api.stripe.com').replace(/\/+$/, ''),
      prices,
      sandbox: false,
    };
  }
  if (!e.SANDBOX) return null;
  return {
    ...SANDBOX_STRIPE,
    apiUrl: (e.STRIPE_API_URL ?? `http://127.0.0.1:${e.SANDBOX_STRIPE_PORT}`).replace(/\/+$/, ''),
    prices: sandboxPrices(),
    sandbox: true,
  };
}

/** The price ids the sandbox creates, for every paid plan and period. */
export function sandboxPrices(): Record<string, string> {
  return Object.fromEntries(
    PAID_PLANS.flatMap((plan) =>
      BILLING_PERIODS.map((period) => [`${plan}:${period}`, sandboxPriceId(plan, period)]),
    ),
  );
}

function twilioSettings(e: z.infer<typeof envSchema>, publicUrl: string): TwilioSettings | null {
  const fromNumber = e.TWILIO_FROM_NUMBER;
  if (e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN) {
    return {
      apiUrl: (e.TWILIO_API_URL ?? 'https://api.twilio.com').replace(/\/+$/, ''),
      accountSid: e.TWILIO_ACCOUNT_SID,
      authToken: e.TWILIO_AUTH_TOKEN,
      fromNumber,
    };
  }
  if (!e.SANDBOX) return null;
  return {
    apiUrl: (e.TWILIO_API_URL ?? `${publicUrl}/sandbox/twilio`).replace(/\/+$/, ''),
    ...SANDBOX_TWILIO,
    fromNumber,
  };
}

function problemOf(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const name = String(issue.path[0] ?? 'settings');
  const given = env[name];
  // Secrets are never echoed back; everything else is shown so the mistake is visible.
  const shown =
    given === undefined || /SECRET|PASSWORD|TOKEN|DATABASE_URL|SMTP_URL/.test(name)
      ? ''
      : ` (got "${given}")`;
  const message = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
  return `${message}${shown}`;
}
