import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  buildAccount,
  CAP_ACCOUNT_ID,
  DEMO_ACCOUNTS,
  DEMO_AGENCY_ID,
  DEMO_MERCHANT_ID,
  DEMO_USERS,
  EFFECTIVE_STATUSES,
  generatedAccountSeed,
  hourDelivery,
  isTimeZone,
  localTime,
  served,
  SMALL_ACCOUNT_NUMBERS,
  smallAccountSeed,
  type AccountSeed,
  type Delivery,
  type EffectiveStatus,
  type IssueInfo,
  type LocalTime,
  type MetaAccount,
  type MetaAd,
  type MetaAdSet,
  type MetaUser,
  type Stop,
} from './meta-catalogue.ts';
import { accountLimitError, accountUsageHeaders, RollingWindow, type UseCase } from './meta-limits.ts';
import { GraphError, MetaLogins, type MetaTokenView } from './meta-oauth.ts';

export type { EffectiveStatus, IssueInfo } from './meta-catalogue.ts';
export type { MetaTokenView } from './meta-oauth.ts';
export { EFFECTIVE_STATUSES } from './meta-catalogue.ts';
export { GraphError } from './meta-oauth.ts';
export type { UseCase } from './meta-limits.ts';

export interface MetaOptions {
  /** The Vigil app's id (client_id) and secret. */
  appId: string;
  appSecret: string;
  /** Shown on the login dialog. Default "Vigil". */
  appName?: string;
  /** The app's valid OAuth redirect URIs. Default [`${publicUrl}/app/oauth`]. */
  redirectUris?: string[];
  /** The version of paging links for calls that name none. Default v21.0. */
  graphVersion?: string;
  /** The Marketing API access tier, which sets the default budget. Default development_access. */
  accessTier?: 'development_access' | 'standard_access';
  /**
   * Points an ad account may spend per window on each use case (ads_management, ads_insights). Default Meta's
   * formula: 300 (development) or 100,000 (standard) + 40 × the account's active ads.
   */
  accountPointsPerWindow?: number;
  /** The rolling window of every budget, in seconds. Default 3600. */
  rateWindowSeconds?: number;
  /** What one insights call costs (any other read costs 1). Default 2. */
  insightsCallCost?: number;
  /** Calls per window the app may make outside ad accounts (/me, /me/adaccounts, debug_token). Default 200 × people. */
  appCallsPerWindow?: number;
  /** Refuse calls without appsecret_proof, as with "Require App Secret" on. Default false. */
  requireAppsecretProof?: boolean;
  /** The clock of codes, tokens, budgets and delivery; tests move it instead of sleeping. */
  now?: () => number;
}

/** A control action that does not fit: an unknown person, account, ad set or ad, or bad input. */
export class MetaActionError extends Error {
  override readonly name = 'MetaActionError';
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'INVALID',
    message: string,
  ) {
    super(message);
  }
}

export const ACCOUNT_STATUSES: Readonly<Record<number, string>> = {
  1: 'ACTIVE',
  2: 'DISABLED',
  3: 'UNSETTLED',
  7: 'PENDING_RISK_REVIEW',
  8: 'PENDING_SETTLEMENT',
  9: 'IN_GRACE_PERIOD',
  100: 'PENDING_CLOSURE',
  101: 'CLOSED',
  201: 'ANY_ACTIVE',
  202: 'ANY_CLOSED',
};

export const DISABLE_REASONS: Readonly<Record<number, string>> = {
  0: 'NONE',
  1: 'ADS_INTEGRITY_POLICY',
  2: 'ADS_IP_REVIEW',
  3: 'RISK_PAYMENT',
  4: 'GRAY_ACCOUNT_SHUT_DOWN',
  5: 'ADS_AFC_REVIEW',
  6: 'BUSINESS_INTEGRITY_RAR',
  7: 'PERMANENT_CLOSE',
  8: 'UNUSED_RESELLER_ACCOUNT',
  9: 'UNUSED_ACCOUNT',
  10: 'UMBRELLA_AD_ACCOUNT',
  11: 'BUSINESS_MANAGER_INTEGRITY_POLICY',
  12: 'MISREPRESENTED_AD_ACCOUNT',
  13: 'AOAB_DESHARE_LEGAL_ENTITY',
  14: 'CTX_THREAD_REVIEW',
  15: 'COMPROMISED_AD_ACCOUNT',
};

/** Account statuses under which ads still deliver. */
const SERVING_STATUSES = new Set([1, 9, 201]);

export interface MetaUserView {
  id: string;
  name: string;
  accountIds: string[];
  throttledUntil: string | null;
  tokens: MetaTokenView[];
}

export interface MetaAdSetView {
  id: string;
  name: string;
  campaignId: string;
  campaignName: string;
  status: string;
  effectiveStatus: EffectiveStatus;
  /** Minor units, as Graph answers it. */
  dailyBudget: string;
  issues: IssueInfo[];
}

export interface MetaAdView {
  id: string;
  name: string;
  adSetId: string;
  status: string;
  effectiveStatus: EffectiveStatus;
  issues: IssueInfo[];
  reviewFeedback: Record<string, Record<string, string>> | null;
}

export interface MetaUsage {
  percent: number;
  points: number;
  budget: number;
}

export interface MetaAccountView {
  id: string;
  accountId: string;
  name: string;
  currency: string;
  timezone: string;
  accountStatus: number;
  disableReason: number;
  /** Minor units, as Graph answers them. */
  amountSpent: string;
  spendCap: string;
  businessId: string | null;
  counts: { campaigns: number; adSets: number; ads: number };
  /** The factor today's spend is scaled by, when it is. */
  todayFactor: number | null;
  throttledUntil: string | null;
  usage: Record<UseCase, MetaUsage>;
}

export interface MetaAccountDetail extends MetaAccountView {
  campaigns: { id: string; name: string; status: string }[];
  adSets: MetaAdSetView[];
  ads: MetaAdView[];
}

export interface MetaCalls {
  /** HTTP requests to the Graph API (a batch is one). */
  httpRequests: number;
  /** Graph calls: each batch item is one, as Meta counts them against the limits. */
  calls: number;
  errors: number;
  throttled: number;
  byAccount: Record<string, number>;
  byUser: Record<string, number>;
  /** By path with ids folded: `/act_{id}/insights`, `/me/adaccounts`. */
  byPath: Record<string, number>;
}

/** appsecret_proof: hex HMAC-SHA256 of the access token, keyed with the app secret. */
export function appsecretProof(token: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(token).digest('hex');
}

const FIRST_IDS = { account: 5_000_000_001, campaign: 1, adSet: 1, ad: 1 };
const noCalls = (): MetaCalls => ({
  httpRequests: 0,
  calls: 0,
  errors: 0,
  throttled: 0,
  byAccount: {},
  byUser: {},
  byPath: {},
});
const increment = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

/**
 * A stand-in for Meta as the Vigil app sees it: Facebook Login for the app, people with ad accounts (campaigns,
 * ad sets, ads and their hourly delivery), and the Graph/Marketing API's tokens and rate limits. The HTTP
 * routes, the JSON API, the control page and in-process tests all drive this one object.
 */
export class MetaSandbox {
  readonly appId: string;
  readonly appName: string;
  readonly graphVersion: string;
  /** The app's codes and tokens, for the OAuth and Graph routes. */
  readonly logins: MetaLogins;
  readonly #options: MetaOptions;
  readonly #publicUrl: () => string;
  readonly #basePath: string;
  readonly #now: () => number;
  readonly #windowMs: number;
  readonly #users = new Map<string, MetaUser>();
  readonly #accounts = new Map<string, MetaAccount>();
  readonly #adSets = new Map<string, MetaAdSet>();
  readonly #ads = new Map<string, MetaAd>();
  /** Budgets charged so far, made on an account's first call. */
  readonly #usage = new Map<string, Record<UseCase, RollingWindow>>();
  #app = { usage: new RollingWindow(), throttledUntil: 0 };
  #calls = noCalls();
  #ids = { ...FIRST_IDS };

  constructor(options: MetaOptions, publicUrl: () => string, basePath: string) {
    this.#options = options;
    this.appId = options.appId;
    this.appName = options.appName ?? 'Vigil';
    this.graphVersion = options.graphVersion ?? 'v21.0';
    this.#publicUrl = publicUrl;
    this.#basePath = basePath;
    this.#now = options.now ?? Date.now;
    this.#windowMs = (options.rateWindowSeconds ?? 3600) * 1000;
    this.logins = new MetaLogins(options.appId, this.#now);
    this.#createDemo();
  }

  /** An app made up for a sandbox started without one: random, so no test can lean on it by accident. */
  static generatedOptions(): MetaOptions {
    return {
      appId: String(100_000_000_000_000 + randomBytes(4).readUInt32BE()),
      appSecret: randomBytes(16).toString('hex'),
    };
  }

  get redirectUris(): string[] {
    return this.#options.redirectUris ?? [`${this.#publicUrl()}/app/oauth`];
  }

  /** The sandbox's https://graph.facebook.com. */
  get graphUrl(): string {
    return `${this.#publicUrl()}${this.#basePath}/meta/graph`;
  }

  /** The sandbox's https://www.facebook.com/{version}/dialog/oauth. */
  get dialogUrl(): string {
    return `${this.#publicUrl()}${this.#basePath}/meta/www/${this.graphVersion}/dialog/oauth`;
  }

  get requireAppsecretProof(): boolean {
    return this.#options.requireAppsecretProof ?? false;
  }

  now(): number {
    return this.#now();
  }

  // ---- People, accounts and what they hold. ----

  users(): MetaUserView[] {
    return [...this.#users.values()].map((user) => this.#userView(user));
  }

  user(userId: string): MetaUserView | undefined {
    const user = this.#users.get(userId);
    return user && this.#userView(user);
  }

  /** A page of accounts (every one, or one person's in the order their list shows them). */
  accounts(filter: { userId?: string; offset?: number; limit?: number } = {}): {
    list: MetaAccountView[];
    total: number;
  } {
    const ids = filter.userId ? this.#requireUser(filter.userId).accountIds : [...this.#accounts.keys()];
    const offset = Math.max(0, filter.offset ?? 0);
    const page = ids.slice(offset, offset + Math.max(1, filter.limit ?? 50));
    return { list: page.map((id) => this.#accountView(this.#accounts.get(id)!)), total: ids.length };
  }

  /** By `act_…` or the bare number. */
  account(accountId: string): MetaAccountDetail | undefined {
    const account = this.#accounts.get(accountId.replace(/^act_/, ''));
    if (!account) return undefined;
    return {
      ...this.#accountView(account),
      campaigns: account.campaigns.map((c) => ({ id: c.id, name: c.name, status: c.status })),
      adSets: account.adSets.map((adSet) => this.#adSetView(account, adSet)),
      ads: account.ads.map((ad) => this.#adView(ad)),
    };
  }

  /**
   * Adds `count` accounts to a person's list (default the demo merchant) for benchmarks: one campaign,
   * `adSetsPerAccount` ad sets (default 3), `adsPerAccount` ads (default 50), 35 days of delivery. Answers their ids.
   */
  addAccounts(
    count: number,
    input: {
      userId?: string;
      adSetsPerAccount?: number;
      adsPerAccount?: number;
      currency?: string;
      timezone?: string;
    } = {},
  ): string[] {
    const user = this.#requireUser(input.userId ?? DEMO_MERCHANT_ID);
    const shape = {
      adSets: input.adSetsPerAccount ?? 3,
      ads: input.adsPerAccount ?? 50,
      currency: input.currency ?? 'USD',
      timezone: input.timezone ?? 'America/New_York',
    };
    const whole = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;
    if (!whole(count, 10_000) || count < 1)
      throw new MetaActionError('INVALID', 'count must be a whole number from 1 to 10000.');
    if (!whole(shape.adSets, 100) || !whole(shape.ads, 1000))
      throw new MetaActionError('INVALID', 'adSetsPerAccount must be 0–100 and adsPerAccount 0–1000.');
    if (shape.ads > 0 && shape.adSets === 0) throw new MetaActionError('INVALID', 'Ads need an ad set.');
    if (!/^[A-Z]{3}$/.test(shape.currency))
      throw new MetaActionError('INVALID', 'currency must be a code like USD.');
    if (!isTimeZone(shape.timezone))
      throw new MetaActionError('INVALID', `${shape.timezone} is not a time zone.`);
    const created: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const accountId = String(this.#ids.account++);
      this.#addAccount(generatedAccountSeed(accountId, user.accountIds.length + 1, shape), [user]);
      created.push(`act_${accountId}`);
    }
    return created;
  }

  // ---- What a person, or Meta's review, does to an account. ----

  /** account_status with a disable_reason; delivery stops under any status but 1, 9 and 201. */
  setAccountStatus(accountId: string, accountStatus: number, disableReason = 0): MetaAccountView {
    const account = this.#requireAccount(accountId);
    if (!(accountStatus in ACCOUNT_STATUSES)) {
      const known = Object.keys(ACCOUNT_STATUSES).join(', ');
      throw new MetaActionError('INVALID', `account_status must be one of ${known}.`);
    }
    if (!(disableReason in DISABLE_REASONS))
      throw new MetaActionError('INVALID', 'disable_reason must be a whole number from 0 to 15.');
    this.#setServing(account.stops, SERVING_STATUSES.has(accountStatus));
    account.status = accountStatus;
    account.disableReason = disableReason;
    return this.#accountView(account);
  }

  /** amount_spent and spend_cap in the currency's minor unit (cents); a cap of 0 means none. */
  setSpend(accountId: string, input: { amountSpent?: number; spendCap?: number }): MetaAccountView {
    const account = this.#requireAccount(accountId);
    for (const [name, value] of Object.entries(input)) {
      if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value < 1e15))
        throw new MetaActionError('INVALID', `${name} must be a whole number of cents, 0 or more.`);
    }
    account.amountSpent = input.amountSpent ?? account.amountSpent;
    account.spendCap = input.spendCap ?? account.spendCap;
    return this.#accountView(account);
  }

  /**
   * Scales what the account delivers today, in its time zone (0: nothing spent today; 2: twice as much). Other
   * days keep their delivery.
   */
  scaleTodaySpend(accountId: string, factor: number): MetaAccountView {
    const account = this.#requireAccount(accountId);
    if (!(Number.isFinite(factor) && factor >= 0 && factor <= 100))
      throw new MetaActionError('INVALID', 'factor must be a number from 0 to 100.');
    account.today = { date: localTime(this.#now(), account.timezone).date, factor };
    return this.#accountView(account);
  }

  /** Sets an ad set's effective_status and its issues_info (the issue text, or a default wording). */
  setAdSetStatus(adSetId: string, status: EffectiveStatus, issue?: string): MetaAdSetView {
    const adSet = this.#adSets.get(adSetId);
    if (!adSet) throw new MetaActionError('NOT_FOUND', `There is no ad set ${adSetId}.`);
    this.#applyStatus(adSet, status, issue, 'AD_SET');
    this.#setServing(adSet.stops, status === 'ACTIVE');
    return this.#adSetView(this.#accounts.get(adSet.accountId)!, adSet);
  }

  /** Sets an ad's effective_status and issues_info; DISAPPROVED fills ad_review_feedback too. */
  setAdStatus(adId: string, status: EffectiveStatus, issue?: string): MetaAdView {
    const ad = this.#ads.get(adId);
    if (!ad) throw new MetaActionError('NOT_FOUND', `There is no ad ${adId}.`);
    this.#applyStatus(ad, status, issue, 'AD');
    ad.reviewFeedback =
      status === 'DISAPPROVED' ? { global: { 'Advertising Policies': ad.issues[0]!.error_message } } : null;
    return this.#adView(ad);
  }

  // ---- Tokens. ----

  /** Every token the person holds stops working: 190/460 (password changed) or 190/458 (app removed). */
  revokeTokens(userId: string, reason: 'password' | 'app_removed' = 'password'): MetaTokenView[] {
    this.#requireUser(userId);
    return this.logins.revoke(userId, reason === 'password' ? 460 : 458).map((t) => this.logins.view(t));
  }

  /** The person's working tokens now end in `days` days; 0 ends them now (190/463). */
  expireTokens(userId: string, days: number): MetaTokenView[] {
    this.#requireUser(userId);
    if (!(Number.isFinite(days) && days >= 0 && days <= 3650))
      throw new MetaActionError('INVALID', 'days must be a number from 0 to 3650.');
    return this.logins.expire(userId, this.#now() + days * 86_400_000).map((t) => this.logins.view(t));
  }

  /** A token without the dialog, for tests and benchmarks: long-lived (60 days) unless asked otherwise. */
  issueToken(userId: string, input: { scopes?: string[]; longLived?: boolean } = {}): MetaTokenView {
    this.#requireUser(userId);
    const scopes = input.scopes ?? ['ads_read', 'public_profile'];
    return this.logins.view(this.logins.issue(userId, scopes, input.longLived === false ? 'short' : 'long'));
  }

  tokens(userId?: string): MetaTokenView[] {
    return this.logins.list(userId).map((t) => this.logins.view(t));
  }

  // ---- Rate limits and counters. ----

  /** Throttles an ad account (80004; 80000 on insights), a person (17) or the app (4); 0 seconds lifts it. */
  throttle(target: { kind: 'account' | 'user' | 'app'; id?: string }, seconds: number): void {
    if (!(Number.isFinite(seconds) && seconds >= 0 && seconds <= 86_400))
      throw new MetaActionError('INVALID', 'seconds must be a number from 0 to 86400.');
    const until = seconds ? this.#now() + seconds * 1000 : 0;
    if (target.kind === 'app') this.#app.throttledUntil = until;
    else if (target.kind === 'user') this.#requireUser(target.id ?? '').throttledUntil = until;
    else if (target.kind === 'account') this.#requireAccount(target.id ?? '').throttledUntil = until;
    else throw new MetaActionError('INVALID', 'kind must be account, user or app.');
  }

  get appThrottledUntil(): string | null {
    return this.#app.throttledUntil > this.#now() ? new Date(this.#app.throttledUntil).toISOString() : null;
  }

  calls(): MetaCalls {
    const c = this.#calls;
    return { ...c, byAccount: { ...c.byAccount }, byUser: { ...c.byUser }, byPath: { ...c.byPath } };
  }

  /** Forgets the counts and the points charged to every budget. */
  resetCalls(): void {
    this.#calls = noCalls();
    this.#app.usage = new RollingWindow();
    this.#usage.clear();
  }

  /** Forgets every token, code, throttle and change, and starts again from the demo data. */
  reset(): void {
    for (const map of [this.#users, this.#accounts, this.#adSets, this.#ads, this.#usage]) map.clear();
    this.logins.clear();
    this.#app = { usage: new RollingWindow(), throttledUntil: 0 };
    this.#calls = noCalls();
    this.#ids = { ...FIRST_IDS };
    this.#createDemo();
  }

  // ---- For the routes: what Meta does behind its HTTP endpoints. ----

  findUser(userId: string): MetaUser | undefined {
    return this.#users.get(userId);
  }

  findAccount(accountId: string): MetaAccount | undefined {
    return this.#accounts.get(accountId);
  }

  checkAppSecret(secret: string): boolean {
    const left = Buffer.from(secret);
    const right = Buffer.from(this.#options.appSecret);
    return left.length === right.length && timingSafeEqual(left, right);
  }

  appsecretProofFor(token: string): string {
    return appsecretProof(token, this.#options.appSecret);
  }

  countRequest(): void {
    this.#calls.httpRequests += 1;
  }

  /** Counts a Graph call (each batch item is one), and one answered with an error. */
  countCall(path: string, userId: string | null, accountId: string | null, failed: boolean): void {
    this.#calls.calls += 1;
    increment(this.#calls.byPath, path);
    if (userId) increment(this.#calls.byUser, userId);
    if (accountId) increment(this.#calls.byAccount, `act_${accountId}`);
    if (failed) this.#calls.errors += 1;
  }

  /** X-App-Usage as it stands, for answers that charge nothing (a batch's envelope). */
  appUsageHeader(): Record<string, string> {
    const percent = Math.round((this.#app.usage.used(this.#now(), this.#windowMs) * 100) / this.#appBudget());
    const usage = {
      call_count: percent,
      total_cputime: Math.floor(percent / 3),
      total_time: Math.floor(percent / 2),
    };
    return { 'X-App-Usage': JSON.stringify(usage) };
  }

  /**
   * Charges a call to the limits it falls under — the app (4) for calls outside ad accounts (Marketing API calls
   * are not part of the platform limit), the person (17), the ad account's use case (80004 ads_management,
   * 80000 ads_insights) — and answers the usage headers, or throws the rate-limit error carrying them.
   */
  charge(call: { userId: string; account: MetaAccount | null; useCase: UseCase }): Record<string, string> {
    const now = this.#now();
    if (!call.account) this.#app.usage.add(now, 1);
    const headers = this.appUsageHeader();
    const refuse = (error: GraphError): never => {
      this.#calls.throttled += 1;
      error.headers = headers;
      throw error;
    };
    const appUsed = this.#app.usage.used(now, this.#windowMs);
    if (this.#app.throttledUntil > now || appUsed > this.#appBudget())
      refuse(new GraphError(4, '(#4) Application request limit reached', { transient: true }));
    if ((this.#users.get(call.userId)?.throttledUntil ?? 0) > now)
      refuse(new GraphError(17, '(#17) User request limit reached', { subcode: 2446079, transient: true }));
    const account = call.account;
    if (!account) return headers;
    const budget = this.accountBudget(account);
    const windows = this.#windows(account);
    const window = windows[call.useCase];
    const cost = call.useCase === 'ads_insights' ? (this.#options.insightsCallCost ?? 2) : 1;
    const throttled = account.throttledUntil > now;
    const fits = !throttled && window.used(now, this.#windowMs) + cost <= budget;
    if (fits) window.add(now, cost);
    const regainAt = throttled
      ? account.throttledUntil
      : fits
        ? now
        : window.freeAt(now, this.#windowMs, budget, cost);
    Object.assign(
      headers,
      accountUsageHeaders({
        account,
        windows,
        useCase: call.useCase,
        now,
        windowMs: this.#windowMs,
        budget,
        throttled,
        regainAt,
        tier: this.#options.accessTier ?? 'development_access',
      }),
    );
    return fits ? headers : refuse(accountLimitError(call.useCase));
  }

  accountBudget(account: MetaAccount): number {
    if (this.#options.accountPointsPerWindow) return this.#options.accountPointsPerWindow;
    let active = 0;
    for (const ad of account.ads) if (ad.effectiveStatus === 'ACTIVE') active += 1;
    return (this.#options.accessTier === 'standard_access' ? 100_000 : 300) + 40 * active;
  }

  /**
   * Calls `visit` for each hour in [from, to), cut at now, and each of the ad sets that delivered in it: the
   * model's hour scaled by the share of the hour it delivered and by the day's factor.
   */
  deliver(
    account: MetaAccount,
    adSets: MetaAdSet[],
    from: number,
    to: number,
    visit: (local: LocalTime, adSet: MetaAdSet, delivery: Delivery) => void,
  ): void {
    const end = Math.min(to, this.#now());
    const start = Math.max(from, account.deliversFrom);
    // Stepping a UTC hour at a time keeps daylight-saving days right (23 or 25 local hours).
    for (let hour = Math.floor(start / 3_600_000) * 3_600_000; hour < end; hour += 3_600_000) {
      const local = localTime(hour, account.timezone);
      const factor = account.today?.date === local.date ? account.today.factor : 1;
      if (factor === 0) continue;
      const until = Math.min(hour + 3_600_000, end);
      for (const adSet of adSets) {
        const budget = (adSet.dailyBudget || adSet.lifetimeBudget / 30) / 100;
        const share = served(Math.max(hour, start), until, adSet.stops, account.stops) / 3_600_000;
        if (budget <= 0 || share <= 0) continue;
        const full = hourDelivery(adSet.id, budget, local.date, local.weekday, local.hour);
        const f = share * factor;
        visit(local, adSet, {
          spend: full.spend * f,
          impressions: full.impressions * f,
          clicks: full.clicks * f,
        });
      }
    }
  }

  // ---- Inside. ----

  #createDemo(): void {
    for (const seed of DEMO_USERS) this.#users.set(seed.id, { ...seed, accountIds: [], throttledUntil: 0 });
    const merchant = this.#users.get(DEMO_MERCHANT_ID)!;
    const agency = this.#users.get(DEMO_AGENCY_ID)!;
    for (const seed of DEMO_ACCOUNTS)
      this.#addAccount(seed, seed.accountId === CAP_ACCOUNT_ID ? [merchant, agency] : [merchant]);
    for (const n of SMALL_ACCOUNT_NUMBERS) this.#addAccount(smallAccountSeed(n), [merchant]);
  }

  #addAccount(seed: AccountSeed, users: MetaUser[]): void {
    const account = buildAccount(seed, this.#now(), this.#ids);
    this.#accounts.set(account.accountId, account);
    for (const adSet of account.adSets) this.#adSets.set(adSet.id, adSet);
    for (const ad of account.ads) this.#ads.set(ad.id, ad);
    for (const user of users) user.accountIds.push(account.accountId);
  }

  #windows(account: MetaAccount): Record<UseCase, RollingWindow> {
    let windows = this.#usage.get(account.accountId);
    if (!windows) {
      windows = { ads_management: new RollingWindow(), ads_insights: new RollingWindow() };
      this.#usage.set(account.accountId, windows);
    }
    return windows;
  }

  #appBudget(): number {
    return this.#options.appCallsPerWindow ?? 200 * Math.max(1, this.#users.size);
  }

  #applyStatus(
    item: MetaAdSet | MetaAd,
    status: EffectiveStatus,
    issue: string | undefined,
    level: IssueInfo['level'],
  ): void {
    if (!EFFECTIVE_STATUSES.includes(status))
      throw new MetaActionError(
        'INVALID',
        `effective_status must be one of ${EFFECTIVE_STATUSES.join(', ')}.`,
      );
    const text = issue?.trim() ?? '';
    if (text.length > 500) throw new MetaActionError('INVALID', 'The issue must be up to 500 characters.');
    item.effectiveStatus = status;
    item.status = ['PAUSED', 'DELETED', 'ARCHIVED'].includes(status) ? status : 'ACTIVE';
    item.updatedAt = this.#now();
    const rejected = status === 'DISAPPROVED';
    if (!rejected && status !== 'WITH_ISSUES' && !text) {
      item.issues = [];
      return;
    }
    const what = level === 'AD' ? 'ad' : 'ad set';
    item.issues = [
      {
        level,
        error_code: rejected ? 1815869 : 2490085,
        error_summary: text || (rejected ? 'Ad not approved' : `This ${what} has an issue`),
        error_message:
          text ||
          (rejected
            ? 'This ad was rejected because it doesn’t follow our Advertising Policies.'
            : `This ${what} has an issue that may stop it from delivering.`),
        error_type: rejected ? 'HARD_ERROR' : 'SOFT_ERROR',
      },
    ];
  }

  /** Opens a stop when delivery ends, and closes it when delivery starts again. */
  #setServing(stops: Stop[], serving: boolean): void {
    const open = stops.at(-1);
    const stopped = open !== undefined && open[1] === null;
    if (serving && stopped) open[1] = this.#now();
    if (!serving && !stopped) stops.push([this.#now(), null]);
  }

  #userView(user: MetaUser): MetaUserView {
    return {
      id: user.id,
      name: user.name,
      accountIds: user.accountIds.map((id) => `act_${id}`),
      throttledUntil: user.throttledUntil > this.#now() ? new Date(user.throttledUntil).toISOString() : null,
      tokens: this.tokens(user.id),
    };
  }

  #adSetView(account: MetaAccount, adSet: MetaAdSet): MetaAdSetView {
    return {
      id: adSet.id,
      name: adSet.name,
      campaignId: adSet.campaignId,
      campaignName: account.campaignsById.get(adSet.campaignId)?.name ?? '',
      status: adSet.status,
      effectiveStatus: adSet.effectiveStatus,
      dailyBudget: String(adSet.dailyBudget),
      issues: adSet.issues,
    };
  }

  #adView(ad: MetaAd): MetaAdView {
    const { id, name, adSetId, status, effectiveStatus, issues, reviewFeedback } = ad;
    return { id, name, adSetId, status, effectiveStatus, issues, reviewFeedback };
  }

  #accountView(account: MetaAccount): MetaAccountView {
    const now = this.#now();
    const budget = this.accountBudget(account);
    const windows = this.#usage.get(account.accountId);
    const usage = (type: UseCase): MetaUsage => {
      const points = windows?.[type].used(now, this.#windowMs) ?? 0;
      return { percent: Math.round((points * 100) / budget), points, budget };
    };
    const today = localTime(now, account.timezone).date;
    return {
      id: `act_${account.accountId}`,
      accountId: account.accountId,
      name: account.name,
      currency: account.currency,
      timezone: account.timezone,
      accountStatus: account.status,
      disableReason: account.disableReason,
      amountSpent: String(account.amountSpent),
      spendCap: String(account.spendCap),
      businessId: account.business?.id ?? null,
      counts: { campaigns: account.campaigns.length, adSets: account.adSets.length, ads: account.ads.length },
      todayFactor: account.today?.date === today ? account.today.factor : null,
      throttledUntil: account.throttledUntil > now ? new Date(account.throttledUntil).toISOString() : null,
      usage: { ads_management: usage('ads_management'), ads_insights: usage('ads_insights') },
    };
  }

  #requireUser(userId: string): MetaUser {
    const user = this.#users.get(userId);
    if (!user) throw new MetaActionError('NOT_FOUND', `There is no Facebook user ${userId}.`);
    return user;
  }

  #requireAccount(accountId: string): MetaAccount {
    const account = this.#accounts.get(accountId.replace(/^act_/, ''));
    if (!account) throw new MetaActionError('NOT_FOUND', `There is no ad account ${accountId}.`);
    return account;
  }
}
