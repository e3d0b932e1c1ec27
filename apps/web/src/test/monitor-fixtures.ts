import type {
  Alert,
  ConditionDefinition,
  Connection,
  FacebookAccount,
  FacebookAdSet,
  GoogleCustomer,
  GoogleCustomerAds,
  Monitor,
  Plan,
  ShopifyProduct,
  ShopifyProductsPage,
} from '@vigil/contracts';
import type { MonitorCatalogue } from '../features/monitors/api/get-monitor-service.ts';

function onByDefault(key: string, label: string): ConditionDefinition {
  return { key, label, description: `${label}.`, enabledByDefault: true, params: [] };
}

const SPEND_ANOMALY: ConditionDefinition = {
  ...onByDefault('spend_anomaly', 'Spend spike or drop'),
  params: [
    {
      key: 'changePercent',
      label: 'Change versus the same weekday',
      type: 'number',
      unit: '%',
      default: 50,
      min: 10,
      max: 500,
    },
  ],
};

/** A catalogue shaped like the server's: all four services available. */
export const catalogue: MonitorCatalogue = {
  list: [
    {
      service: 'website',
      name: 'Website',
      description: 'Any page of your storefront or site.',
      available: true,
      unavailableReason: null,
      targetLabel: 'Page address',
      conditions: [
        {
          key: 'http_status',
          label: 'Error status',
          description: 'Not 2xx/3xx.',
          enabledByDefault: true,
          params: [],
        },
        {
          key: 'timeout',
          label: 'Timeout',
          description: 'No answer in time.',
          enabledByDefault: true,
          params: [
            {
              key: 'timeoutMs',
              label: 'Timeout',
              type: 'number',
              unit: 'ms',
              default: 10_000,
              min: 1000,
              max: 30_000,
            },
          ],
        },
        {
          key: 'keyword',
          label: 'Keyword',
          description: 'A word missing from or present on the page.',
          enabledByDefault: false,
          params: [
            { key: 'keyword', label: 'Keyword', type: 'text', default: '' },
            {
              key: 'mode',
              label: 'Alert when the keyword',
              type: 'text',
              default: 'missing',
              options: ['missing', 'present'],
            },
          ],
        },
        {
          key: 'slow_response',
          label: 'Slow response',
          description: 'Slower than a threshold.',
          enabledByDefault: false,
          params: [
            {
              key: 'thresholdMs',
              label: 'Threshold',
              type: 'number',
              unit: 'ms',
              default: 3000,
              min: 100,
              max: 30_000,
            },
          ],
        },
        {
          key: 'tls_expiry',
          label: 'Certificate expiry',
          description: 'TLS certificate expiring soon.',
          enabledByDefault: true,
          params: [
            {
              key: 'days',
              label: 'Days before expiry',
              type: 'number',
              unit: 'days',
              default: 14,
              min: 1,
              max: 90,
            },
          ],
        },
        {
          key: 'password_page',
          label: 'Password page',
          description: 'The shop shows its password page.',
          enabledByDefault: false,
          params: [],
        },
      ],
    },
    {
      service: 'shopify',
      name: 'Shopify shop',
      description: 'Storefront, checkout and products.',
      available: true,
      unavailableReason: null,
      targetLabel: 'Shop',
      conditions: [
        {
          key: 'storefront_down',
          label: 'Storefront down',
          description: 'The storefront does not load, or shows its password page.',
          enabledByDefault: true,
          params: [],
        },
        {
          key: 'checkout_broken',
          label: 'Checkout broken',
          description: 'Adding a watched product to the cart fails.',
          enabledByDefault: false,
          params: [],
        },
        {
          key: 'product_out_of_stock',
          label: 'Out of stock',
          description: 'A watched variant’s stock is at or under the threshold.',
          enabledByDefault: true,
          params: [
            {
              key: 'threshold',
              label: 'Alert at or under',
              type: 'number',
              default: 0,
              min: 0,
              max: 10_000,
            },
          ],
        },
        {
          key: 'product_unpublished',
          label: 'Unpublished',
          description: 'A watched product is no longer on the online store.',
          enabledByDefault: true,
          params: [],
        },
        {
          key: 'product_price_changed',
          label: 'Price changed',
          description: 'A watched variant’s price differs from when it was chosen.',
          enabledByDefault: false,
          params: [],
        },
        {
          key: 'app_uninstalled',
          label: 'Connection lost',
          description: 'The app was uninstalled or its access revoked.',
          enabledByDefault: true,
          params: [],
        },
      ],
    },
    {
      service: 'google_ads',
      name: 'Google Ads',
      description: 'A Google Ads account, or the campaigns and ads you choose in it.',
      available: true,
      unavailableReason: null,
      targetLabel: 'Google Ads account (connect with Google)',
      conditions: [
        onByDefault('account_not_enabled', 'Account not enabled'),
        onByDefault('ad_disapproved', 'Ad disapproved'),
        onByDefault('campaign_not_eligible', 'Campaign not serving'),
        onByDefault('zero_impressions', 'No impressions today'),
        SPEND_ANOMALY,
        onByDefault('connection_lost', 'Connection lost'),
        onByDefault('shop_cannot_sell', 'Ads spending while the shop cannot sell'),
      ],
    },
    {
      service: 'facebook_ads',
      name: 'Meta ads',
      description: 'A Facebook and Instagram ad account, or the ad sets you choose in it.',
      available: true,
      unavailableReason: null,
      targetLabel: 'Ad account (connect with Facebook)',
      conditions: [
        onByDefault('account_status', 'Account not active'),
        onByDefault('adset_disapproved', 'Ad set or ad rejected'),
        {
          ...onByDefault('spend_cap', 'Spend cap nearly reached'),
          params: [
            {
              key: 'percent',
              label: 'Share of the cap',
              type: 'number',
              unit: '%',
              default: 90,
              min: 50,
              max: 100,
            },
          ],
        },
        SPEND_ANOMALY,
        onByDefault('connection_lost', 'Connection lost'),
        onByDefault('shop_cannot_sell', 'Ads spending while the shop cannot sell'),
      ],
    },
  ],
  languages: [
    { languageCode: 'en-US', language: 'English' },
    { languageCode: 'en-GB', language: 'English' },
    { languageCode: 'de-DE', language: 'German' },
  ],
  intervalSeconds: { min: 30, max: 86_400, default: 300 },
  repeatIntervalMinutes: { min: 0, max: 1440, default: 30 },
  confirmations: { min: 1, max: 10, default: 2 },
};

export const freePlan: Plan = {
  name: 'Free',
  priceMonthlyCents: 0,
  priceYearlyCents: 0,
  periodDays: 14,
  maxMonitors: 3,
  maxAccounts: 1,
  minIntervalSeconds: 300,
  channels: ['email'],
  smsPerMonth: 0,
  callsPerMonth: 0,
  highlights: [],
  checkout: false,
};

export const starterPlan: Plan = {
  ...freePlan,
  name: 'Starter',
  minIntervalSeconds: 60,
  channels: ['email', 'sms'],
  smsPerMonth: 100,
  checkout: true,
};

export const proPlan: Plan = {
  ...starterPlan,
  name: 'Pro',
  channels: ['email', 'sms', 'call'],
  smsPerMonth: 500,
  callsPerMonth: 100,
};

export const businessPlan: Plan = { ...proPlan, name: 'Business', minIntervalSeconds: 30 };

/** The catalogue as the server sells it: calls only on Pro and Business. */
export const allPlans = [freePlan, starterPlan, proPlan, businessPlan];

const unchecked = { checked: false, name: '', isAgree: false, phone: '' };

type WebsiteMonitor = Extract<Monitor, { service: 'website' }>;
type ShopifyMonitor = Extract<Monitor, { service: 'shopify' }>;

export function aMonitor(overrides: Partial<WebsiteMonitor> = {}): WebsiteMonitor {
  return {
    monitorId: '11111111-1111-4111-8111-111111111111',
    name: 'Storefront',
    service: 'website',
    target: { url: 'https://shop.example.com' },
    conditions: {
      http_status: { enabled: true },
      timeout: { enabled: true, timeoutMs: 10_000 },
      keyword: { enabled: false, keyword: '', mode: 'missing' },
      slow_response: { enabled: false, thresholdMs: 3000 },
      tls_expiry: { enabled: true, days: 14 },
      password_page: { enabled: false },
    },
    intervalSeconds: 300,
    repeatIntervalMinutes: 30,
    confirmations: 2,
    languageCode: 'en-US',
    callSettings: unchecked,
    smsSettings: unchecked,
    emailSettings: { checked: true, name: 'Ana', isAgree: false, email: 'ana@shop.com' },
    status: 'up',
    paused: false,
    pauseReason: null,
    lastCheckedAt: new Date(Date.now() - 120_000).toISOString(),
    lastResponseMs: 230,
    lastError: null,
    uptime24h: 99.5,
    openIncidents: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export const connectionId = (n: number) => `44444444-4444-4444-8444-${String(n).padStart(12, '0')}`;

export function aConnection(overrides: Partial<Connection> = {}): Connection {
  return {
    connectionId: connectionId(1),
    provider: 'shopify',
    account: 'hoodies.myshopify.com',
    name: 'Hoodies',
    scopes: ['read_products', 'read_inventory'],
    status: 'active',
    statusReason: null,
    statusChangedAt: null,
    expiresAt: null,
    monitors: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export const productId = (n: number) => `gid://shopify/Product/${1000 + n}`;

export function aShopifyProduct(n: number, overrides: Partial<ShopifyProduct> = {}): ShopifyProduct {
  return {
    productId: productId(n),
    title: `Hoodie ${n}`,
    handle: `hoodie-${n}`,
    status: 'ACTIVE',
    publishedOnline: true,
    imageUrl: `https://cdn.example.com/hoodie-${n}.jpg`,
    imageAlt: null,
    priceMin: '39.00',
    priceMax: '39.00',
    currency: 'USD',
    totalInventory: 12,
    variants: [],
    ...overrides,
  };
}

/** One page of products as `shopify-products` answers it. */
export function aProductsPage(
  list: ShopifyProduct[],
  pageInfo: Partial<ShopifyProductsPage['pageInfo']> = {},
): ShopifyProductsPage {
  return {
    list,
    pageInfo: {
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: list.length ? `start-${list[0]!.productId}` : null,
      endCursor: list.length ? `end-${list.at(-1)!.productId}` : null,
      ...pageInfo,
    },
    shop: 'hoodies.myshopify.com',
  };
}

export function aShopifyMonitor(overrides: Partial<ShopifyMonitor> = {}): ShopifyMonitor {
  const { service: _service, target: _target, conditions: _conditions, ...shared } = aMonitor();
  return {
    ...shared,
    monitorId: '55555555-5555-4555-8555-555555555555',
    name: 'Hoodies shop',
    service: 'shopify',
    target: {
      connectionId: connectionId(1),
      shop: 'hoodies.myshopify.com',
      storefrontUrl: 'https://hoodies.example.com',
      currency: 'USD',
      products: [
        {
          productId: productId(1),
          title: 'Hoodie 1',
          handle: 'hoodie-1',
          imageUrl: null,
          variants: [
            {
              variantId: 'gid://shopify/ProductVariant/1',
              title: 'Small',
              price: '39.00',
              inventoryItemId: '1',
            },
            {
              variantId: 'gid://shopify/ProductVariant/2',
              title: 'Large',
              price: '44.00',
              inventoryItemId: '2',
            },
          ],
        },
      ],
    },
    conditions: {
      storefront_down: { enabled: true },
      checkout_broken: { enabled: false },
      product_out_of_stock: { enabled: true, threshold: 0 },
      product_unpublished: { enabled: true },
      product_price_changed: { enabled: false },
      app_uninstalled: { enabled: true },
    },
    connection: aConnection(),
    ...overrides,
  };
}

export function anAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    incidentId: '22222222-2222-4222-8222-222222222222',
    monitorId: '11111111-1111-4111-8111-111111111111',
    monitorName: 'Storefront',
    conditionKey: 'http_status',
    conditionLabel: 'Error status',
    summary: 'The page answered 503 Service Unavailable.',
    state: 'open',
    openedAt: '2026-03-10T11:00:00.000Z',
    acknowledgedAt: null,
    resolvedAt: null,
    resolvedBy: null,
    resolutionNote: null,
    alertCount: 1,
    deliveries: [
      {
        event: 'opened',
        channel: 'email',
        recipient: 'ana@shop.com',
        status: 'sent',
        attempts: 1,
        lastError: null,
        sentAt: '2026-03-10T11:00:02.000Z',
        fallbackFor: null,
      },
    ],
    ...overrides,
  };
}

/** The api client's answers, as the endpoint functions resolve them. */
export const ok = <T>(data: T) => ({ ok: true as const, status: 200, data });
export const failed = (status = 500, message = 'unkow error') => ({
  ok: false as const,
  status,
  data: undefined,
  code: 'INTERNAL',
  message,
});

// ---- Google Ads and Meta ----

type GoogleAdsMonitor = Extract<Monitor, { service: 'google_ads' }>;
type MetaAdsMonitor = Extract<Monitor, { service: 'facebook_ads' }>;

export const googleConnection = aConnection({
  connectionId: connectionId(11),
  provider: 'google',
  account: '109876543210987654321',
  name: 'merchant@vigil.test',
  scopes: ['https://www.googleapis.com/auth/adwords'],
});

export const metaConnection = aConnection({
  connectionId: connectionId(21),
  provider: 'meta',
  account: '10000000000001',
  name: 'Demo Merchant',
  scopes: ['ads_read'],
  expiresAt: '2026-05-01T00:00:00.000Z',
});

const customerRef = (customerId: string, name: string, loginCustomerId: string | null = null) => ({
  resourceName: `customers/${customerId}`,
  customerId,
  name,
  currency: 'USD',
  timeZone: 'America/New_York',
  loginCustomerId,
});

/** A manager (1112223333) with two clients, one suspended; and an account reached directly. */
export const googleCustomers: GoogleCustomer[] = [
  {
    ...customerRef('1112223333', 'Agency Manager'),
    status: 'ENABLED',
    manager: true,
    clients: [
      { ...customerRef('2223334444', 'Hoodie Co', '1112223333'), status: 'ENABLED', manager: false },
      {
        ...customerRef('5556667777', 'Sock Shop', '1112223333'),
        currency: 'EUR',
        status: 'SUSPENDED',
        manager: false,
      },
    ],
  },
  { ...customerRef('9998887777', 'Own Shop'), status: 'ENABLED', manager: false, clients: [] },
];

const adName = (customerId: string, adGroupId: string, adId: string) =>
  `customers/${customerId}/adGroupAds/${adGroupId}~${adId}`;

/** Hoodie Co's campaigns: one eligible with two ad groups, one not eligible. */
export const hoodieCoAds: GoogleCustomerAds = {
  customer: { ...customerRef('2223334444', 'Hoodie Co', '1112223333'), status: 'ENABLED' },
  campaigns: [
    {
      campaignId: '301',
      name: 'Hoodies — search',
      status: 'ENABLED',
      primaryStatus: 'ELIGIBLE',
      primaryStatusReasons: [],
      adGroups: [
        {
          adGroupId: '401',
          name: 'Zip hoodies',
          status: 'ENABLED',
          ads: [
            {
              resourceName: adName('2223334444', '401', '501'),
              adId: '501',
              name: 'Zip hoodie sale',
              status: 'ENABLED',
              approvalStatus: 'APPROVED',
              policyTopics: [],
            },
            {
              resourceName: adName('2223334444', '401', '502'),
              adId: '502',
              name: 'Zip hoodie free shipping',
              status: 'ENABLED',
              approvalStatus: 'DISAPPROVED',
              policyTopics: ['DESTINATION_NOT_WORKING'],
            },
          ],
        },
        {
          adGroupId: '402',
          name: 'Pullovers',
          status: 'ENABLED',
          ads: [
            {
              resourceName: adName('2223334444', '402', '503'),
              adId: '503',
              name: 'Pullover new colours',
              status: 'ENABLED',
              approvalStatus: 'APPROVED_LIMITED',
              policyTopics: ['TRADEMARKS_IN_AD_TEXT'],
            },
          ],
        },
      ],
    },
    {
      campaignId: '302',
      name: 'Brand — display',
      status: 'ENABLED',
      primaryStatus: 'NOT_ELIGIBLE',
      primaryStatusReasons: ['HAS_ADS_DISAPPROVED'],
      adGroups: [
        {
          adGroupId: '403',
          name: 'Banners',
          status: 'ENABLED',
          ads: [
            {
              resourceName: adName('2223334444', '403', '504'),
              adId: '504',
              name: 'Brand banner',
              status: 'PAUSED',
              approvalStatus: 'APPROVED',
              policyTopics: [],
            },
          ],
        },
      ],
    },
  ],
};

export function aGoogleAdsMonitor(overrides: Partial<GoogleAdsMonitor> = {}): GoogleAdsMonitor {
  const { service: _service, target: _target, conditions: _conditions, ...shared } = aMonitor();
  return {
    ...shared,
    monitorId: '77777777-7777-4777-8777-777777777777',
    name: 'Hoodie Co ads',
    service: 'google_ads',
    target: {
      connectionId: googleConnection.connectionId,
      customer: customerRef('2223334444', 'Hoodie Co', '1112223333'),
      campaigns: [],
      ads: [
        {
          resourceName: adName('2223334444', '401', '501'),
          adId: '501',
          name: 'Zip hoodie sale',
          adGroupName: 'Zip hoodies',
          campaignId: '301',
          campaignName: 'Hoodies — search',
        },
        {
          resourceName: adName('2223334444', '402', '503'),
          adId: '503',
          name: 'Pullover new colours',
          adGroupName: 'Pullovers',
          campaignId: '301',
          campaignName: 'Hoodies — search',
        },
      ],
      linkedMonitorId: null,
    },
    conditions: {
      account_not_enabled: { enabled: true },
      ad_disapproved: { enabled: true },
      campaign_not_eligible: { enabled: true },
      zero_impressions: { enabled: true },
      spend_anomaly: { enabled: true, changePercent: 50 },
      connection_lost: { enabled: true },
      shop_cannot_sell: { enabled: true },
    },
    connection: googleConnection,
    ...overrides,
  };
}

export function aFacebookAccount(n: number, overrides: Partial<FacebookAccount> = {}): FacebookAccount {
  return {
    accountId: String(1010101010 + n - 1),
    name: n === 1 ? 'Hoodie Co Ads' : `Ad account ${n}`,
    currency: 'USD',
    timeZone: 'America/Los_Angeles',
    accountStatus: 1,
    statusLabel: 'active',
    disableReason: 0,
    disableReasonLabel: null,
    amountSpent: '1234.56',
    spendCap: '5000.00',
    ...overrides,
  };
}

export function aFacebookAdSet(n: number, overrides: Partial<FacebookAdSet> = {}): FacebookAdSet {
  return {
    adSetId: String(23850000000000 + n),
    name: `Ad set ${n}`,
    campaignName: 'Hoodies — prospecting',
    effectiveStatus: 'ACTIVE',
    dailyBudget: '60.00',
    lifetimeBudget: null,
    issues: [],
    ...overrides,
  };
}

export function aMetaAdsMonitor(overrides: Partial<MetaAdsMonitor> = {}): MetaAdsMonitor {
  const { service: _service, target: _target, conditions: _conditions, ...shared } = aMonitor();
  return {
    ...shared,
    monitorId: '88888888-8888-4888-8888-888888888888',
    name: 'Hoodie Co Meta',
    service: 'facebook_ads',
    target: {
      connectionId: metaConnection.connectionId,
      account: {
        accountId: '1010101010',
        name: 'Hoodie Co Ads',
        currency: 'USD',
        timeZone: 'America/Los_Angeles',
      },
      adSets: [
        { adSetId: '23850000000001', name: 'Ad set 1', campaignName: 'Hoodies — prospecting' },
        { adSetId: '23850000000002', name: 'Ad set 2', campaignName: 'Hoodies — prospecting' },
      ],
      linkedMonitorId: null,
    },
    conditions: {
      account_status: { enabled: true },
      adset_disapproved: { enabled: true },
      spend_cap: { enabled: true, percent: 90 },
      spend_anomaly: { enabled: true, changePercent: 50 },
      connection_lost: { enabled: true },
      shop_cannot_sell: { enabled: true },
    },
    connection: metaConnection,
    ...overrides,
  };
}
