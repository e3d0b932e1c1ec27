import {
  META_ACCOUNT_STATUS,
  META_DISABLE_REASON,
  type FacebookAccount,
  type FacebookAdSet,
} from '@vigil/contracts';
import type { HourFigures } from '../ads/baseline.ts';
import type { MetaError } from './meta-ads.client.ts';
import { type BatchCall, graphPageOf, type GraphPage, type MetaClient } from './meta-ads.client.ts';

/**
 * The Graph reads Vigil makes on an ad account, and what their answers mean: amounts in the currency's minor
 * unit turned into decimals, statuses into words, issues into sentences.
 */

/** Currencies Meta counts in whole units (offset 1 in Meta's currency table); every other has offset 100. */
const WHOLE_UNIT_CURRENCIES = new Set([
  'CLP',
  'COP',
  'CRC',
  'HUF',
  'ISK',
  'IDR',
  'JPY',
  'KRW',
  'PYG',
  'TWD',
  'VND',
]);

/** Digits after the point of a currency's amounts as Meta stores them (amount_spent, spend_cap, budgets). */
export const currencyDigits = (currency: string) =>
  WHOLE_UNIT_CURRENCIES.has(currency.toUpperCase()) ? 0 : 2;

/** Meta's minor units ("123456") to a major-unit decimal string ("1234.56"), exactly (no floating point). */
export function minorToMajor(minor: string | number, currency: string): string {
  const text = String(minor).trim();
  if (!/^-?\d+$/.test(text)) return '0';
  const digits = currencyDigits(currency);
  const negative = text.startsWith('-');
  const whole = (negative ? text.slice(1) : text).replace(/^0+(?=\d)/, '');
  if (digits === 0) return `${negative ? '-' : ''}${whole}`;
  const padded = whole.padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** A spend cap in minor units to a decimal string; "0" (or nothing) means the account has none. */
export const spendCapOf = (minor: string | number | undefined | null, currency: string) =>
  minor === undefined || minor === null || /^0*$/.test(String(minor).trim())
    ? null
    : minorToMajor(minor, currency);

/** A budget in minor units; "0" or none means the ad set has no budget of that kind. */
const budgetOf = spendCapOf;

export const ACCOUNT_FIELDS =
  'account_id,name,currency,account_status,disable_reason,amount_spent,spend_cap,timezone_name';
const ADSET_FIELDS = 'id,name,effective_status,daily_budget,lifetime_budget,campaign{name},issues_info';
const AD_FIELDS = 'id,name,adset_id,effective_status,issues_info';
/** Ad sets and ads read in one page; an account with more is judged on these. */
export const CHECK_PAGE = 200;
/** Ads in these states are the ones the adset_disapproved condition is about. */
export const PROBLEM_STATUSES = ['DISAPPROVED', 'WITH_ISSUES'];

export interface GraphAccount {
  id?: string;
  account_id?: string;
  name?: string;
  currency?: string;
  account_status?: number;
  disable_reason?: number;
  amount_spent?: string;
  spend_cap?: string;
  timezone_name?: string;
}

interface GraphIssue {
  error_summary?: string;
  error_message?: string;
  level?: string;
}

interface GraphAdSet {
  id: string;
  name?: string;
  effective_status?: string;
  daily_budget?: string;
  lifetime_budget?: string;
  campaign?: { name?: string };
  issues_info?: GraphIssue[];
}

interface GraphAd {
  id: string;
  name?: string;
  adset_id?: string;
  effective_status?: string;
  issues_info?: GraphIssue[];
}

/** An issue as one sentence: "Ad not approved: This ad was rejected because …". */
export function issueSentence(issue: GraphIssue): string {
  const summary = issue.error_summary?.trim();
  const message = issue.error_message?.trim();
  if (summary && message && message !== summary) return `${summary}: ${message}`;
  return summary || message || 'An issue Meta did not describe';
}

export const statusLabel = (status: number) => META_ACCOUNT_STATUS[status] ?? `status ${status}`;
export const disableReasonLabel = (reason: number) =>
  reason === 0 ? null : (META_DISABLE_REASON[reason] ?? `reason ${reason}`);

export function toFacebookAccount(account: GraphAccount): FacebookAccount {
  const currency = account.currency ?? 'USD';
  const status = Number(account.account_status ?? 0);
  const reason = Number(account.disable_reason ?? 0);
  return {
    accountId: account.account_id ?? (account.id ?? '').replace(/^act_/, ''),
    name: account.name ?? '',
    currency,
    timeZone: account.timezone_name ?? 'UTC',
    accountStatus: status,
    statusLabel: statusLabel(status),
    disableReason: reason,
    disableReasonLabel: disableReasonLabel(reason),
    amountSpent: minorToMajor(account.amount_spent ?? '0', currency),
    spendCap: spendCapOf(account.spend_cap, currency),
  };
}

export function toFacebookAdSet(adSet: GraphAdSet, currency: string): FacebookAdSet {
  return {
    adSetId: adSet.id,
    name: adSet.name ?? '',
    campaignName: adSet.campaign?.name ?? '',
    effectiveStatus: adSet.effective_status ?? 'UNKNOWN',
    dailyBudget: budgetOf(adSet.daily_budget, currency),
    lifetimeBudget: budgetOf(adSet.lifetime_budget, currency),
    issues: (adSet.issues_info ?? []).map(issueSentence),
  };
}

export interface AdState {
  adId: string;
  name: string;
  adSetId: string;
  effectiveStatus: string;
  issues: string[];
}

/** One read of an ad account for the checks: everything its monitors judge, from one batch request. */
export interface AccountRead {
  account: FacebookAccount;
  /** Ad sets by id (the first CHECK_PAGE of the account). */
  adSets: Map<string, FacebookAdSet>;
  /** Ads of the account that are DISAPPROVED or WITH_ISSUES (the first CHECK_PAGE). */
  problemAds: AdState[];
  /** Hourly figures of today and the baseline days; null when not asked for or not read (`figuresError`). */
  figures: HourFigures[] | null;
  figuresError: MetaError | null;
}

/** `hourly_stats_aggregated_by_advertiser_time_zone` is "13:00:00 - 13:59:59". */
const hourOf = (value: string | undefined) => Number.parseInt(value?.slice(0, 2) ?? '', 10);

/** Insights rows (one per range and hour) to hourly figures; spend is already in the major unit there. */
export function figuresOf(rows: Record<string, unknown>[]): HourFigures[] {
  const figures: HourFigures[] = [];
  for (const row of rows) {
    const hour = hourOf(row.hourly_stats_aggregated_by_advertiser_time_zone as string | undefined);
    const date = row.date_start as string | undefined;
    if (!date || !Number.isInteger(hour)) continue;
    figures.push({
      date,
      hour,
      spend: Number.parseFloat(String(row.spend ?? '0')) || 0,
      impressions: Number.parseInt(String(row.impressions ?? '0'), 10) || 0,
    });
  }
  return figures;
}

export function createMetaApi(client: MetaClient) {
  return {
    client,

    /** `/me/adaccounts`, a page by cursor. */
    async adAccounts(token: string, page: { after?: string | undefined; limit: number }) {
      const answer = await client.page<GraphAccount>('me/adaccounts', token, {
        fields: ACCOUNT_FIELDS,
        limit: page.limit,
        after: page.after,
      });
      return { ...answer, data: answer.data.map(toFacebookAccount) };
    },

    /**
     * The account and a page of its ad sets in one batch request. An account this token cannot reach is a
     * `refused` MetaError (Graph's 100 / 200 / 10).
     */
    async accountWithAdSets(
      token: string,
      accountId: string,
      page: { after?: string | undefined; limit: number },
    ): Promise<{ account: FacebookAccount; adSets: GraphPage<FacebookAdSet> }> {
      const [account, adSets] = await client.batch(
        token,
        [
          { path: `act_${accountId}`, params: { fields: ACCOUNT_FIELDS } },
          {
            path: `act_${accountId}/adsets`,
            params: { fields: ADSET_FIELDS, limit: page.limit, after: page.after },
          },
        ],
        { account: accountId },
      );
      if (!account!.ok) throw account!.error;
      if (!adSets!.ok) throw adSets!.error;
      const read = toFacebookAccount(account!.body as GraphAccount);
      const list = graphPageOf<GraphAdSet>(adSets!.body);
      return {
        account: read,
        adSets: { ...list, data: list.data.map((adSet) => toFacebookAdSet(adSet, read.currency)) },
      };
    },

    /** A further page of an account's ad sets. */
    async adSetsPage(token: string, accountId: string, currency: string, after: string, limit: number) {
      const list = await client.page<GraphAdSet>(
        `act_${accountId}/adsets`,
        token,
        { fields: ADSET_FIELDS, limit, after },
        { account: accountId },
      );
      return { ...list, data: list.data.map((adSet) => toFacebookAdSet(adSet, currency)) };
    },

    /**
     * The checks' read of an account, as ONE batch request: the account, its ad sets, its ads that are
     * DISAPPROVED or WITH_ISSUES, and — when `figuresFor` names the days — the hourly insights of those days
     * (`time_ranges`, one range a day, in the account's own time zone).
     */
    async readAccount(
      token: string,
      accountId: string,
      figuresFor: string[] | null,
      signal?: AbortSignal,
    ): Promise<AccountRead> {
      const calls: BatchCall[] = [
        { path: `act_${accountId}`, params: { fields: ACCOUNT_FIELDS } },
        { path: `act_${accountId}/adsets`, params: { fields: ADSET_FIELDS, limit: CHECK_PAGE } },
        {
          path: `act_${accountId}/ads`,
          params: {
            fields: AD_FIELDS,
            effective_status: JSON.stringify(PROBLEM_STATUSES),
            limit: CHECK_PAGE,
          },
        },
      ];
      if (figuresFor) {
        calls.push({
          path: `act_${accountId}/insights`,
          params: {
            fields: 'spend,impressions',
            level: 'account',
            breakdowns: 'hourly_stats_aggregated_by_advertiser_time_zone',
            time_ranges: JSON.stringify(figuresFor.map((date) => ({ since: date, until: date }))),
            limit: 24 * figuresFor.length,
          },
        });
      }
      const [account, adSets, ads, insights] = await client.batch(token, calls, {
        account: accountId,
        signal,
      });
      // The account itself decides: without it nothing can be judged (a refused token, an account gone).
      if (!account!.ok) throw account!.error;
      const read = toFacebookAccount(account!.body as GraphAccount);
      const failedPart = [adSets, ads].find((part) => part && !part.ok);
      if (failedPart && !failedPart.ok) throw failedPart.error;
      const adSetList = graphPageOf<GraphAdSet>(adSets!.ok ? adSets!.body : null).data;
      const adList = graphPageOf<GraphAd>(ads!.ok ? ads!.body : null).data;
      return {
        account: read,
        adSets: new Map(adSetList.map((adSet) => [adSet.id, toFacebookAdSet(adSet, read.currency)])),
        problemAds: adList.map((ad) => ({
          adId: ad.id,
          name: ad.name ?? ad.id,
          adSetId: ad.adset_id ?? '',
          effectiveStatus: ad.effective_status ?? 'UNKNOWN',
          issues: (ad.issues_info ?? []).map(issueSentence),
        })),
        figures:
          insights?.ok === true ? figuresOf(graphPageOf<Record<string, unknown>>(insights.body).data) : null,
        figuresError: insights && !insights.ok ? insights.error : null,
      };
    },
  };
}
export type MetaApi = ReturnType<typeof createMetaApi>;
