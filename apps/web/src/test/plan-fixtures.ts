import type { Plan, PlanCoverage, PlanOrder, PlanOrderAccounts, SubscriptionInfo } from '@vigil/contracts';

export const NOW = Math.floor(Date.now() / 1000);

export const free: Plan = {
  name: 'Free',
  priceMonthlyCents: 0,
  priceYearlyCents: 0,
  periodDays: 14,
  maxMonitors: 3,
  maxAccounts: 1,
  minIntervalSeconds: 300,
  channels: ['email', 'sms'],
  smsPerMonth: 20,
  callsPerMonth: 0,
  highlights: ['Website and Shopify monitors'],
  checkout: false,
};

export const starter: Plan = {
  ...free,
  name: 'Starter',
  priceMonthlyCents: 1900,
  priceYearlyCents: 19000,
  periodDays: 30,
  maxMonitors: 20,
  maxAccounts: 3,
  minIntervalSeconds: 60,
  smsPerMonth: 100,
  highlights: [],
  checkout: true,
};

export const pro: Plan = {
  ...free,
  name: 'Pro',
  priceMonthlyCents: 4900,
  priceYearlyCents: 49000,
  periodDays: 30,
  maxMonitors: 100,
  maxAccounts: 10,
  minIntervalSeconds: 60,
  channels: ['email', 'sms', 'call'],
  smsPerMonth: 500,
  callsPerMonth: 100,
  highlights: ['Phone calls that wake you up'],
  checkout: true,
};

export function aSubscription(overrides: Partial<SubscriptionInfo> = {}): SubscriptionInfo {
  return {
    plan: 'Free',
    state: 'free',
    period: null,
    planExpiresin: '0',
    nextCharge: null,
    graceUntil: null,
    canManageBilling: false,
    ...overrides,
  };
}

/** Paying for Pro monthly, renewing in 30 days at $49. */
export function aProSubscription(overrides: Partial<SubscriptionInfo> = {}): SubscriptionInfo {
  const renews = NOW + 30 * 86_400;
  return aSubscription({
    plan: 'Pro',
    state: 'active',
    period: 'month',
    planExpiresin: renews,
    nextCharge: { amountCents: 4900, currency: 'usd', at: renews },
    canManageBilling: true,
    ...overrides,
  });
}

export const ORDER_ID = 'ord_7f3a';

export function anOrder(overrides: Partial<PlanOrder> = {}): PlanOrder {
  return {
    orderId: ORDER_ID,
    plan: 'Pro',
    period: 'month',
    amountCents: 4900,
    currency: 'usd',
    status: 'pending',
    failure: null,
    checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_1',
    createdAt: new Date().toISOString(),
    activatedAt: null,
    planExpiresin: null,
    ...overrides,
  };
}

export function aCoverage(overrides: Partial<PlanCoverage> = {}): PlanCoverage {
  return {
    plan: 'Pro',
    accountLimit: 10,
    monitorLimit: 100,
    accountsCovered: 2,
    monitorsCovered: 4,
    coversAll: true,
    summary: 'Pro covers both of your shops and all 4 monitors.',
    ...overrides,
  };
}

/** Two shops and four monitors: Free holds one shop, Starter and Pro hold everything. */
export const twoShops: PlanOrderAccounts = {
  accounts: [
    {
      connectionId: 'c1',
      provider: 'shopify',
      account: 'hoodies.myshopify.com',
      name: 'Hoodies',
      monitors: 3,
    },
    { connectionId: 'c2', provider: 'shopify', account: 'socks.myshopify.com', name: 'Socks', monitors: 1 },
  ],
  monitorCount: 4,
  plans: [
    aCoverage({
      plan: 'Free',
      accountLimit: 1,
      monitorLimit: 3,
      accountsCovered: 1,
      monitorsCovered: 3,
      coversAll: false,
      summary: 'Free covers 1 of your 2 shops and 3 of your 4 monitors.',
    }),
    aCoverage({ plan: 'Starter', summary: 'Starter covers both of your shops and all 4 monitors.' }),
    aCoverage(),
  ],
};

export const nothingYet: PlanOrderAccounts = {
  accounts: [],
  monitorCount: 0,
  plans: [
    aCoverage({ plan: 'Free', summary: 'Free covers everything you have.' }),
    aCoverage({ plan: 'Pro', summary: 'Pro covers everything you have.' }),
  ],
};
