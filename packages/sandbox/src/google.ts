import { randomBytes } from 'node:crypto';
import { GoogleAdsApi, type GoogleQuotaView, type GoogleUsage } from './google-ads-api.ts';
import {
  APPROVAL_STATUSES,
  CAMPAIGN_PRIMARY_STATUSES,
  CAMPAIGN_PRIMARY_STATUS_REASONS,
  CUSTOMER_STATUSES,
  DEMO_CUSTOMERS,
  DEMO_USERS,
  generatedCampaigns,
  isTimeZone,
  POLICY_TOPIC_TYPES,
  seedOf,
  type AdsAd,
  type AdsCampaign,
  type AdsCustomer,
  type AdsUser,
  type ApprovalStatus,
  type CampaignPrimaryStatus,
  type CampaignPrimaryStatusReason,
  type CampaignSpec,
  type ChannelType,
  type CustomerSpec,
  type CustomerStatus,
  type EntityStatus,
  type PolicyTopic,
  type PolicyTopicType,
  type ReviewStatus,
} from './google-catalogue.ts';
import { GoogleOAuth } from './google-oauth.ts';

export type {
  ApprovalStatus,
  CampaignPrimaryStatus,
  CampaignPrimaryStatusReason,
  CustomerStatus,
  PolicyTopic,
  PolicyTopicType,
} from './google-catalogue.ts';
export type { AdsCall, GoogleQuotaView, GoogleUsage, UsageCounter } from './google-ads-api.ts';
export { GoogleAdsError } from './google-ads-api.ts';

export interface GoogleOptions {
  /** The Vigil app's OAuth client and its Google Ads developer token. */
  clientId: string;
  clientSecret: string;
  developerToken: string;
  /** Authorized redirect URIs. Default [`${publicUrl}/app/oauth`]. */
  redirectUris?: string[];
  /** Rows per googleAds:search page. Default 10000, as Google since v17. */
  pageSize?: number;
  /** Operations the developer token may spend a day (Basic access). Default 15000. */
  dailyOperations?: number;
  /** The clock of codes, tokens, quota and "today" in the reports; tests move it instead of sleeping. */
  now?: () => number;
}

/** A control action that does not fit: an unknown customer, campaign, ad or user, or bad input. */
export class GoogleActionError extends Error {
  override readonly name = 'GoogleActionError';
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'INVALID',
    message: string,
  ) {
    super(message);
  }
}

export interface AddCustomersInput {
  /** A manager the new customers become clients of (reached with login-customer-id). */
  managerId?: string;
  /** A user given direct access to each. Default: merchant@vigil.test, unless `managerId` is set. */
  userEmail?: string;
  /** Default 50. */
  adsPerCustomer?: number;
  /** Default 5. */
  campaignsPerCustomer?: number;
  /** Default "Bench shop". */
  namePrefix?: string;
  currencyCode?: string;
  timeZone?: string;
}

export const DEFAULT_ADS_API_VERSION = 'v21';
const DEFAULT_TOPIC: Record<Exclude<ApprovalStatus, 'APPROVED'>, PolicyTopic> = {
  DISAPPROVED: { topic: 'DESTINATION_NOT_WORKING', type: 'PROHIBITED' },
  APPROVED_LIMITED: { topic: 'TRADEMARKS_IN_AD_TEXT', type: 'LIMITED' },
  AREA_OF_INTEREST_ONLY: { topic: 'GAMBLING_AND_GAMES', type: 'AREA_OF_INTEREST_ONLY' },
};

/**
 * A stand-in for Google as the Vigil app sees it for Google Ads: Google accounts (users) signing in with
 * OAuth 2.0, the customers they reach directly or through a manager, campaigns, ad groups and ads with their
 * serving and policy states, seeded hourly metrics, and the REST API's search with GAQL, paging, errors and
 * the developer token's quota. The routes, the JSON API, the control page and tests all drive this object.
 */
export class GoogleSandbox {
  readonly clientId: string;
  readonly developerToken: string;
  readonly oauth: GoogleOAuth;
  /** The Google Ads REST API behind `/ads/{version}`: its checks, quota and counters. */
  readonly ads: GoogleAdsApi;
  readonly #options: GoogleOptions;
  readonly #publicUrl: () => string;
  readonly #basePath: string;
  readonly #now: () => number;
  readonly #customers = new Map<string, AdsCustomer>();
  readonly #users = new Map<string, AdsUser>();
  #ids = { campaign: 0, adGroup: 0, ad: 0, customer: 0 };

  constructor(options: GoogleOptions, publicUrl: () => string, basePath: string) {
    this.#options = options;
    this.clientId = options.clientId;
    this.developerToken = options.developerToken;
    this.#publicUrl = publicUrl;
    this.#basePath = basePath;
    this.#now = options.now ?? Date.now;
    this.oauth = new GoogleOAuth(
      {
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        redirectUris: () => this.redirectUris,
      },
      this.#now,
      (email) => this.#users.get(email),
    );
    this.ads = new GoogleAdsApi({
      oauth: this.oauth,
      developerToken: options.developerToken,
      pageSize: options.pageSize ?? 10_000,
      dailyOperations: options.dailyOperations ?? 15_000,
      now: this.#now,
      customer: (id) => this.#customers.get(id),
      user: (email) => this.#users.get(email),
    });
    this.reset();
  }

  /** An app made up for a sandbox started without one: random, so no test can lean on it by accident. */
  static generatedOptions(): GoogleOptions {
    return {
      clientId: `${randomBytes(6).toString('hex')}-${randomBytes(12).toString('hex')}.apps.googleusercontent.com`,
      clientSecret: `GOCSPX-${randomBytes(18).toString('base64url')}`,
      developerToken: randomBytes(16).toString('base64url'),
    };
  }

  get redirectUris(): string[] {
    return this.#options.redirectUris ?? [`${this.#publicUrl()}/app/oauth`];
  }

  get pageSize(): number {
    return this.#options.pageSize ?? 10_000;
  }

  /** `${publicUrl}${basePath}/google`: Google's hosts (accounts, oauth2, googleads.googleapis.com) live under it. */
  get baseUrl(): string {
    return `${this.#publicUrl()}${this.basePath}`;
  }

  get basePath(): string {
    return `${this.#basePath}/google`;
  }

  get endpoints(): { authorize: string; token: string; revoke: string; certs: string; ads: string } {
    const base = this.baseUrl;
    return {
      authorize: `${base}/o/oauth2/v2/auth`,
      token: `${base}/token`,
      revoke: `${base}/revoke`,
      certs: `${base}/oauth2/v3/certs`,
      ads: `${base}/ads/${DEFAULT_ADS_API_VERSION}`,
    };
  }

  // ---- Users and customers. ----

  users(): GoogleUserView[] {
    return [...this.#users.values()].map((u) => ({
      email: u.email,
      name: u.name,
      sub: u.sub,
      customerIds: [...u.customerIds],
      refreshTokens: this.oauth.refreshTokenCount(u.email),
    }));
  }

  /** The users as stored, for the consent screen. */
  adsUsers(): AdsUser[] {
    return [...this.#users.values()];
  }

  /** A Google account; with no customers it is not a Google Ads user (NOT_ADS_USER). */
  addUser(input: { email: string; name?: string; customerIds?: string[] }): GoogleUserView {
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new GoogleActionError('INVALID', 'Enter an email address.');
    if (this.#users.has(email)) throw new GoogleActionError('CONFLICT', `${email} already exists.`);
    const customerIds = (input.customerIds ?? []).map((id) => this.#requireCustomer(id).id);
    this.#users.set(email, {
      email,
      name: input.name?.trim() || email,
      sub: String(100_000_000_000_000_000_000n + BigInt(seedOf(email))),
      customerIds,
    });
    return this.users().find((u) => u.email === email)!;
  }

  customers(): GoogleCustomerView[] {
    return [...this.#customers.values()].map(customerView);
  }

  customer(customerId: string): GoogleCustomerDetail | undefined {
    const customer = this.#customers.get(normalizeId(customerId));
    return (
      customer && {
        ...customerView(customer),
        campaigns: customer.campaigns.map(campaignView),
        ads: customer.ads.map(adView),
      }
    );
  }

  /** Creates `count` customers with campaigns and ads, for benchmarks; answers them in order. */
  addCustomers(count: number, input: AddCustomersInput = {}): GoogleCustomerView[] {
    if (!Number.isInteger(count) || count < 1 || count > 100_000)
      throw new GoogleActionError('INVALID', 'count must be an integer from 1 to 100000.');
    const ads = input.adsPerCustomer ?? 50;
    const campaigns = input.campaignsPerCustomer ?? 5;
    if (!Number.isInteger(ads) || ads < 0 || ads > 1000)
      throw new GoogleActionError('INVALID', 'adsPerCustomer must be an integer from 0 to 1000.');
    if (!Number.isInteger(campaigns) || campaigns < 1 || campaigns > 100)
      throw new GoogleActionError('INVALID', 'campaignsPerCustomer must be an integer from 1 to 100.');
    const manager = input.managerId === undefined ? null : this.#requireCustomer(input.managerId);
    if (manager && !manager.manager)
      throw new GoogleActionError('INVALID', `${manager.id} is not a manager.`);
    const email = input.userEmail ?? (manager ? undefined : DEMO_USERS[0]!.email);
    const user = email === undefined ? null : this.#requireUser(email);
    const timeZone = input.timeZone ?? 'America/New_York';
    if (!isTimeZone(timeZone)) throw new GoogleActionError('INVALID', `${timeZone} is not a time zone.`);
    const currencyCode = input.currencyCode ?? 'USD';
    if (!/^[A-Z]{3}$/.test(currencyCode))
      throw new GoogleActionError('INVALID', 'currencyCode must be like USD.');
    const created: GoogleCustomerView[] = [];
    for (let i = 0; i < count; i += 1) {
      const id = String(5_000_000_001 + this.#ids.customer++);
      const name = `${input.namePrefix ?? 'Bench shop'} ${id}`;
      const customer = this.#addCustomer(
        { id, name, currencyCode, timeZone, campaigns: generatedCampaigns(name, ads, campaigns) },
        manager,
      );
      user?.customerIds.push(customer.id);
      created.push(customerView(customer));
    }
    return created;
  }

  // ---- What the account's owner or Google changes. ----

  /** ENABLED, SUSPENDED, CANCELED or CLOSED; a cancelled or closed account answers CUSTOMER_NOT_ENABLED. */
  setCustomerStatus(customerId: string, status: CustomerStatus): GoogleCustomerView {
    const customer = this.#requireCustomer(customerId);
    oneOf(status, CUSTOMER_STATUSES, 'status');
    customer.status = status;
    return customerView(customer);
  }

  /** Google's policy review of an ad: APPROVED clears the topics; the others carry one (a default per status). */
  setAdApproval(
    customerId: string,
    adId: string,
    approvalStatus: ApprovalStatus,
    topic?: { topic?: string; type?: PolicyTopicType },
  ): GoogleAdView {
    const customer = this.#requireCustomer(customerId);
    const ad = customer.adsById.get(String(adId).split('~').pop()!);
    if (!ad) throw new GoogleActionError('NOT_FOUND', `Customer ${customer.id} has no ad ${adId}.`);
    oneOf(approvalStatus, APPROVAL_STATUSES, 'approvalStatus');
    if (topic?.type !== undefined) oneOf(topic.type, POLICY_TOPIC_TYPES, 'type');
    if (topic?.topic !== undefined && !/^[A-Z][A-Z0-9_]{0,99}$/.test(topic.topic))
      throw new GoogleActionError('INVALID', 'topic must be a policy topic like DESTINATION_NOT_WORKING.');
    ad.approvalStatus = approvalStatus;
    ad.reviewStatus = 'REVIEWED';
    if (approvalStatus === 'APPROVED') {
      ad.policyTopics = [];
    } else {
      const fallback = DEFAULT_TOPIC[approvalStatus];
      ad.policyTopics = [{ topic: topic?.topic || fallback.topic, type: topic?.type ?? fallback.type }];
    }
    return adView(ad);
  }

  /** What Google reports about a campaign's serving: primary_status and its reasons. */
  setCampaignPrimaryStatus(
    customerId: string,
    campaignId: string,
    primaryStatus: CampaignPrimaryStatus,
    reasons: CampaignPrimaryStatusReason[] = [],
  ) {
    const customer = this.#requireCustomer(customerId);
    const campaign = customer.campaignsById.get(String(campaignId));
    if (!campaign)
      throw new GoogleActionError('NOT_FOUND', `Customer ${customer.id} has no campaign ${campaignId}.`);
    oneOf(primaryStatus, CAMPAIGN_PRIMARY_STATUSES, 'primaryStatus');
    if (!Array.isArray(reasons)) throw new GoogleActionError('INVALID', 'reasons must be a list.');
    for (const reason of reasons) oneOf(reason, CAMPAIGN_PRIMARY_STATUS_REASONS, 'reasons');
    campaign.primaryStatus = primaryStatus;
    campaign.primaryStatusReasons = [...new Set(reasons)];
    return campaignView(campaign);
  }

  /** Multiplies today's impressions, clicks and spend (0: nothing served today); earlier days are untouched. */
  scaleToday(customerId: string, factor: number): GoogleCustomerView {
    const customer = this.#requireCustomer(customerId);
    if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 0 || factor > 100)
      throw new GoogleActionError('INVALID', 'factor must be a number from 0 to 100.');
    customer.todayFactor = factor;
    return customerView(customer);
  }

  /** The user removes Vigil's access: refresh tokens answer invalid_grant, access tokens OAUTH_TOKEN_REVOKED. */
  revokeUser(email: string): { revokedRefreshTokens: number } {
    const user = this.#requireUser(email);
    return { revokedRefreshTokens: this.oauth.revokeUser(user.email) };
  }

  accessTokens(): GoogleAccessTokenView[] {
    const now = this.#now();
    return this.oauth.accessGrants().map((g) => ({
      token: g.token,
      email: g.email,
      clientId: g.clientId,
      scopes: g.scopes,
      issuedAt: new Date(g.issuedAt).toISOString(),
      expiresAt: new Date(g.expiresAt).toISOString(),
      expired: g.expiresAt <= now,
      revoked: g.revoked,
    }));
  }

  // ---- Quota and usage, for tests and benchmarks. ----

  quota(): GoogleQuotaView {
    return this.ads.quota();
  }

  /** What is left of today's operations (Google restarts the count at midnight Pacific time). */
  setRemainingOperations(remaining: number): GoogleQuotaView {
    if (!Number.isInteger(remaining) || remaining < 0)
      throw new GoogleActionError('INVALID', 'remainingOperations must be a whole number, 0 or more.');
    this.ads.setRemainingOperations(remaining);
    return this.quota();
  }

  /** Every request answers RESOURCE_TEMPORARILY_EXHAUSTED for `seconds` (0 lifts it). */
  exhaustQuota(seconds: number): GoogleQuotaView {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 86_400)
      throw new GoogleActionError('INVALID', 'seconds must be a number from 0 to 86400.');
    this.ads.exhaustFor(seconds);
    return this.quota();
  }

  /** Requests, operations and errors, in total and by customer, user and endpoint. */
  usage(): GoogleUsage {
    return this.ads.usage();
  }

  resetUsage(): void {
    this.ads.resetUsage();
  }

  /** Forgets every token, bulk customer, change and count, and starts again from the demo accounts. */
  reset(): void {
    this.oauth.clear();
    this.#customers.clear();
    this.#users.clear();
    this.#ids = { campaign: 0, adGroup: 0, ad: 0, customer: 0 };
    this.ads.reset();
    for (const spec of DEMO_CUSTOMERS) this.#addCustomer(spec, null);
    for (const user of DEMO_USERS)
      this.#users.set(user.email, { ...user, customerIds: [...user.customerIds] });
  }

  #addCustomer(spec: CustomerSpec, manager: AdsCustomer | null): AdsCustomer {
    if (this.#customers.has(spec.id)) throw new GoogleActionError('CONFLICT', `Customer ${spec.id} exists.`);
    const customer: AdsCustomer = {
      id: spec.id,
      descriptiveName: spec.name,
      currencyCode: spec.currencyCode,
      timeZone: spec.timeZone,
      status: 'ENABLED',
      manager: spec.manager ?? false,
      testAccount: false,
      managerId: manager?.id ?? null,
      clientIds: [],
      campaigns: [],
      campaignsById: new Map(),
      adGroups: [],
      ads: [],
      adsById: new Map(),
      todayFactor: 1,
    };
    this.#customers.set(customer.id, customer);
    manager?.clientIds.push(customer.id);
    for (const campaign of spec.campaigns ?? []) this.#addCampaign(customer, campaign);
    for (const client of spec.clients ?? []) this.#addCustomer(client, customer);
    return customer;
  }

  #addCampaign(customer: AdsCustomer, spec: CampaignSpec): void {
    const id = String(20_000_000_001 + this.#ids.campaign++);
    const paused = spec.paused ?? false;
    const campaign: AdsCustomer['campaigns'][number] = {
      id,
      customer,
      name: spec.name,
      status: paused ? 'PAUSED' : 'ENABLED',
      primaryStatus: paused ? 'PAUSED' : 'ELIGIBLE',
      primaryStatusReasons: paused ? ['CAMPAIGN_PAUSED'] : [],
      channelType: spec.channelType,
      dailyImpressions: paused ? 0 : spec.dailyImpressions,
      ctr: spec.ctr,
      cpcMicros: spec.cpcMicros,
      adGroups: [],
      ads: [],
      adWeight: 0,
      seed: seedOf(`${customer.id}/${spec.name}`),
    };
    customer.campaigns.push(campaign);
    customer.campaignsById.set(id, campaign);
    for (const groupSpec of spec.adGroups) {
      const adGroup = {
        id: String(150_000_000_001 + this.#ids.adGroup++),
        campaign,
        name: groupSpec.name,
        status: 'ENABLED' as const,
        ads: [] as AdsCustomer['ads'],
      };
      campaign.adGroups.push(adGroup);
      customer.adGroups.push(adGroup);
      for (const adSpec of groupSpec.ads) {
        const ad: AdsCustomer['ads'][number] = {
          id: String(700_000_000_001 + this.#ids.ad++),
          adGroup,
          name: adSpec.name,
          type: adSpec.type ?? 'RESPONSIVE_SEARCH_AD',
          finalUrls: [adSpec.finalUrl],
          status: 'ENABLED',
          approvalStatus: 'APPROVED',
          reviewStatus: 'REVIEWED',
          policyTopics: [],
          weight: 2 + (campaign.ads.length % 3),
        };
        adGroup.ads.push(ad);
        campaign.ads.push(ad);
        campaign.adWeight += ad.weight;
        customer.ads.push(ad);
        customer.adsById.set(ad.id, ad);
      }
    }
  }

  #requireCustomer(customerId: string): AdsCustomer {
    const customer = this.#customers.get(normalizeId(customerId));
    if (!customer) throw new GoogleActionError('NOT_FOUND', `There is no customer ${customerId}.`);
    return customer;
  }

  #requireUser(email: string): AdsUser {
    const user = this.#users.get(String(email).trim().toLowerCase());
    if (!user) throw new GoogleActionError('NOT_FOUND', `There is no Google user ${email}.`);
    return user;
  }
}

/** "customers/111-222-3333", "111-222-3333" and "1112223333" name the same customer. */
function normalizeId(id: string): string {
  return String(id)
    .replace(/^customers\//, '')
    .replaceAll('-', '');
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): asserts value is T {
  if (!allowed.includes(value as T))
    throw new GoogleActionError('INVALID', `${name} must be one of ${allowed.join(', ')}.`);
}

export interface GoogleUserView {
  email: string;
  name: string;
  sub: string;
  /** Customers the user reaches directly (listAccessibleCustomers). */
  customerIds: string[];
  /** Refresh tokens issued to Vigil and not revoked. */
  refreshTokens: number;
}

export interface GoogleCustomerView {
  id: string;
  resourceName: string;
  descriptiveName: string;
  currencyCode: string;
  timeZone: string;
  status: CustomerStatus;
  manager: boolean;
  managerId: string | null;
  clientIds: string[];
  todayFactor: number;
  campaignCount: number;
  adCount: number;
}

export interface GoogleCampaignView {
  id: string;
  resourceName: string;
  name: string;
  status: EntityStatus;
  primaryStatus: CampaignPrimaryStatus;
  primaryStatusReasons: CampaignPrimaryStatusReason[];
  advertisingChannelType: ChannelType;
  adGroups: { id: string; resourceName: string; name: string }[];
}

export interface GoogleAdView {
  id: string;
  /** The ad_group_ad: `customers/{customer}/adGroupAds/{adGroup}~{ad}`. */
  resourceName: string;
  name: string;
  adGroupId: string;
  adGroupName: string;
  campaignId: string;
  campaignName: string;
  finalUrls: string[];
  approvalStatus: ApprovalStatus;
  reviewStatus: ReviewStatus;
  policyTopicEntries: PolicyTopic[];
}

export interface GoogleCustomerDetail extends GoogleCustomerView {
  campaigns: GoogleCampaignView[];
  ads: GoogleAdView[];
}

export interface GoogleAccessTokenView {
  token: string;
  email: string;
  clientId: string;
  scopes: string[];
  issuedAt: string;
  expiresAt: string;
  expired: boolean;
  revoked: boolean;
}

function customerView(customer: AdsCustomer): GoogleCustomerView {
  return {
    id: customer.id,
    resourceName: `customers/${customer.id}`,
    descriptiveName: customer.descriptiveName,
    currencyCode: customer.currencyCode,
    timeZone: customer.timeZone,
    status: customer.status,
    manager: customer.manager,
    managerId: customer.managerId,
    clientIds: [...customer.clientIds],
    todayFactor: customer.todayFactor,
    campaignCount: customer.campaigns.length,
    adCount: customer.ads.length,
  };
}

function campaignView(campaign: AdsCampaign): GoogleCampaignView {
  const base = `customers/${campaign.customer.id}`;
  return {
    id: campaign.id,
    resourceName: `${base}/campaigns/${campaign.id}`,
    name: campaign.name,
    status: campaign.status,
    primaryStatus: campaign.primaryStatus,
    primaryStatusReasons: [...campaign.primaryStatusReasons],
    advertisingChannelType: campaign.channelType,
    adGroups: campaign.adGroups.map((g) => ({
      id: g.id,
      resourceName: `${base}/adGroups/${g.id}`,
      name: g.name,
    })),
  };
}

function adView(ad: AdsAd): GoogleAdView {
  const campaign = ad.adGroup.campaign;
  return {
    id: ad.id,
    resourceName: `customers/${campaign.customer.id}/adGroupAds/${ad.adGroup.id}~${ad.id}`,
    name: ad.name,
    adGroupId: ad.adGroup.id,
    adGroupName: ad.adGroup.name,
    campaignId: campaign.id,
    campaignName: campaign.name,
    finalUrls: [...ad.finalUrls],
    approvalStatus: ad.approvalStatus,
    reviewStatus: ad.reviewStatus,
    policyTopicEntries: ad.policyTopics.map((t) => ({ ...t })),
  };
}
