import type { GoogleAdsConditions, GoogleAdsTarget } from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Checker, CheckOutcome, CheckRequest, ConditionResult } from '../../checks/checker.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ConnectionRepository, ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { tokenContext } from '../../modules/connections/connection.service.ts';
import {
  baselineOf,
  datesNeeded,
  type HourFigures,
  judgeImpressions,
  judgeSpend,
  localTime,
} from '../ads/baseline.ts';
import { holdBack, type LinkedShops, shopCannotSell, type ShopOutage } from '../ads/linked-shop.ts';
import type { AccountState, AdState, GoogleAdsApi } from './google-ads-api.ts';
import { GoogleAdsError } from './google-ads.client.ts';
import { createBatchLoader } from '../../lib/batch-loader.ts';

/** One read of an account serves every monitor of it that comes due within this long (they share a slot). */
export const ACCOUNT_READ_TTL_MS = 20_000;
/**
 * An account's hourly figures are read at most this often. Google's reporting figures lag by up to a few hours
 * anyway, and the developer token's daily operations are the scarce thing: with a state search every 5 minutes
 * and figures every 15, an account costs 384 operations a day instead of 576.
 */
export const FIGURES_TTL_MS = 15 * 60_000;
/** Connection rows asked for in the same moment are read with one statement. */
const CONNECTION_BATCH_MS = 5;

/** What a read of an account gave: the value, or Google's error. */
type Read<T> = { value: T; error: null } | { value: null; error: GoogleAdsError };

/** Searches the checker ran, for benchmarks: one state search per account per interval, figures when needed. */
export interface GoogleAdsCheckOperations {
  stateReads: number;
  figureReads: number;
}

export interface GoogleAdsCheckerDeps {
  connections: Pick<ConnectionRepository, 'findMany' | 'setStatus'>;
  cipher: TokenCipher;
  api: GoogleAdsApi;
  linkedShops: LinkedShops;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => number;
}

export type GoogleAdsChecker = Checker & { operations(): GoogleAdsCheckOperations };

/** Google's customer id as Google Ads shows it: 222-333-4444. */
export function dashed(customerId: string): string {
  return /^\d{10}$/.test(customerId)
    ? `${customerId.slice(0, 3)}-${customerId.slice(3, 6)}-${customerId.slice(6)}`
    : customerId;
}

const accountName = (target: GoogleAdsTarget, state?: AccountState | null) =>
  `${state?.name || target.customer.name} (${dashed(target.customer.customerId)})`;

const words = (value: string) => value.toLowerCase().replaceAll('_', ' ');

/** "A", "A and B", "A, B and 3 more". */
function listed(items: string[], most = 2): string {
  if (items.length <= most) return items.join(' and ');
  return `${items.slice(0, most).join(', ')} and ${items.length - most} more`;
}

const STATUS_WORDS: Record<string, string> = {
  SUSPENDED: 'suspended',
  CANCELED: 'cancelled',
  CLOSED: 'closed',
  UNKNOWN: 'in an unknown state',
  UNSPECIFIED: 'in an unknown state',
};

export function judgeAccount(target: GoogleAdsTarget, state: AccountState): ConditionResult {
  const name = accountName(target, state);
  if (state.status === 'ENABLED') {
    return { key: 'account_not_enabled', ok: true, summary: `Google Ads account ${name} is enabled.` };
  }
  return {
    key: 'account_not_enabled',
    ok: false,
    confirmed: true,
    summary: `Google Ads account ${name} is ${STATUS_WORDS[state.status] ?? words(state.status)} (status ${state.status}): it serves no ads.`,
  };
}

const serving = (ad: AdState) =>
  ad.status === 'ENABLED' && ad.adGroup.status === 'ENABLED' && ad.campaign.status === 'ENABLED';

/** The ads a monitor watches: the chosen ones, plus the serving ads of its campaigns (or of the whole account). */
export function watchedAds(target: GoogleAdsTarget, state: AccountState): AdState[] {
  const chosen = new Set(target.ads.map((ad) => ad.resourceName));
  const campaigns = new Set(target.campaigns.map((campaign) => campaign.campaignId));
  const wholeAccount = chosen.size === 0 && campaigns.size === 0;
  return state.ads.filter(
    (ad) =>
      chosen.has(ad.resourceName) || (serving(ad) && (wholeAccount || campaigns.has(ad.campaign.campaignId))),
  );
}

const APPROVAL_WORDS: Record<string, string> = {
  DISAPPROVED: 'disapproved',
  APPROVED_LIMITED: 'approved with limits',
};

export function judgeAds(target: GoogleAdsTarget, state: AccountState): ConditionResult {
  const watched = watchedAds(target, state);
  const bad = watched.filter((ad) => ad.approvalStatus in APPROVAL_WORDS);
  const name = accountName(target, state);
  if (bad.length === 0) {
    return {
      key: 'ad_disapproved',
      ok: true,
      summary: `${watched.length === 1 ? 'The watched ad is' : `The ${watched.length} watched ads are`} approved in ${name}.`,
    };
  }
  const each = bad.map(
    (ad) =>
      `“${ad.name}” (${ad.campaign.name} › ${ad.adGroup.name}) is ${APPROVAL_WORDS[ad.approvalStatus]}${ad.policyTopics.length ? ` for ${ad.policyTopics.join(', ')}` : ''}`,
  );
  return {
    key: 'ad_disapproved',
    ok: false,
    confirmed: true,
    summary: `${bad.length === 1 ? 'An ad' : `${bad.length} ads`} in ${name}: ${listed(each, 3)}.`,
  };
}

export function judgeCampaigns(target: GoogleAdsTarget, state: AccountState): ConditionResult {
  const chosen = new Map<string, string>();
  for (const campaign of target.campaigns) chosen.set(campaign.campaignId, campaign.name);
  for (const ad of target.ads) chosen.set(ad.campaignId, ad.campaignName);
  const seen = new Map<string, AdState['campaign']>();
  for (const ad of state.ads) seen.set(ad.campaign.campaignId, ad.campaign);
  const judged =
    chosen.size > 0
      ? [...chosen.keys()]
      : [...seen.values()].filter((campaign) => campaign.status === 'ENABLED').map((c) => c.campaignId);
  const problems: string[] = [];
  for (const id of judged) {
    const campaign = seen.get(id);
    if (!campaign) {
      // Not read is not gone when the account has more ads than one read takes.
      if (!state.truncated) problems.push(`“${chosen.get(id)}” has no ads left, or was removed`);
      continue;
    }
    if (campaign.primaryStatus !== 'NOT_ELIGIBLE' && campaign.primaryStatus !== 'LIMITED') continue;
    const reasons = campaign.reasons.length ? ` (${campaign.reasons.map(words).join(', ')})` : '';
    problems.push(
      `“${campaign.name}” is ${campaign.primaryStatus === 'LIMITED' ? 'limited' : 'not eligible to serve'}${reasons}`,
    );
  }
  const name = accountName(target, state);
  if (problems.length === 0) {
    return {
      key: 'campaign_not_eligible',
      ok: true,
      summary:
        judged.length === 0
          ? `No enabled campaign in ${name}.`
          : `${judged.length === 1 ? 'The watched campaign is' : `The ${judged.length} watched campaigns are`} eligible in ${name}.`,
    };
  }
  return {
    key: 'campaign_not_eligible',
    ok: false,
    summary: `${problems.length === 1 ? 'A campaign' : `${problems.length} campaigns`} in ${name}: ${listed(problems, 3)}.`,
  };
}

/** What to pause while the shop cannot sell: the watched campaigns, by name, or the account's campaigns. */
export function pauseWhat(target: GoogleAdsTarget, state: AccountState | null): string {
  const names = new Set(target.campaigns.map((campaign) => campaign.name));
  for (const ad of target.ads) names.add(ad.campaignName);
  if (names.size === 0) return `the campaigns of ${state?.name || target.customer.name}`;
  const quoted = [...names].map((name) => `“${name}”`);
  return `the campaign${names.size === 1 ? '' : 's'} ${listed(quoted, 3)}`;
}

interface Cached<T> {
  at: number;
  value: Promise<Read<T>>;
}

/**
 * The `google_ads` checker. Monitors of one Google Ads account (through one connection) share a slot, so the
 * first check of a slot reads the account and the others use that read: one state search per account per
 * interval (`FROM ad_group_ad`, plus one `FROM customer` for an account with no ads) and, only when one of
 * them needs figures, one metrics search (hourly, today and the same weekday of the last 4 weeks) at most every
 * 15 minutes. State reads are keyed by the slot (a check by hand reads afresh); failures are not kept. A quota error makes the client hold back every
 * call until Google's retry delay ends; the conditions say when the next try is, and nothing opens an incident.
 */
export function createGoogleAdsChecker(deps: GoogleAdsCheckerDeps): GoogleAdsChecker {
  const { connections, cipher, api, linkedShops, log } = deps;
  const now = deps.now ?? Date.now;
  const states = new Map<string, Cached<AccountState>>();
  const figures = new Map<string, Cached<HourFigures[]>>();
  const operations: GoogleAdsCheckOperations = { stateReads: 0, figureReads: 0 };

  const loadConnection = createBatchLoader(
    async (ids) => new Map((await connections.findMany(ids)).map((row) => [row.id, row])),
    CONNECTION_BATCH_MS,
  );

  function cached<T>(
    cache: Map<string, Cached<T>>,
    key: string,
    load: () => Promise<T>,
    ttlMs = ACCOUNT_READ_TTL_MS,
  ): Promise<Read<T>> {
    const hit = cache.get(key);
    if (hit && now() - hit.at < ttlMs) return hit.value;
    const value = load().then(
      (result): Read<T> => ({ value: result, error: null }),
      (error: unknown): Read<T> => {
        if (!(error instanceof GoogleAdsError)) throw error;
        return { value: null, error };
      },
    );
    cache.set(key, { at: now(), value });
    // Failures are forgotten at once, reads after their time, so the maps hold only accounts being checked.
    const forget = () => cache.get(key)?.value === value && cache.delete(key);
    value.then((read) => (read.error ? forget() : setTimeout(forget, ttlMs).unref()), forget);
    return value;
  }

  async function lose(row: ConnectionRow, error: GoogleAdsError): Promise<void> {
    api.client.forget(row.id);
    await connections.setStatus([row.id], 'lost', error.message, new Date(now()));
  }

  return {
    service: 'google_ads',
    slotGroup: (target) => {
      const t = target as Partial<GoogleAdsTarget>;
      return t.connectionId && t.customer ? `${t.connectionId} ${t.customer.customerId}` : null;
    },
    operations: () => ({ ...operations }),

    async check(request: CheckRequest): Promise<CheckOutcome> {
      const target = request.target as GoogleAdsTarget;
      const conditions = request.conditions as GoogleAdsConditions;
      const row = await loadConnection(target.connectionId);
      const active = row?.status === 'active' && row.tokenCiphertext !== null;
      // One read per account and slot: its monitors share the slot; a check by hand has its own.
      const key = `${target.connectionId} ${target.customer.customerId} ${request.slotAt.getTime()}`;
      const access = {
        customerId: target.customer.customerId,
        loginCustomerId: target.customer.loginCustomerId,
      };
      const auth = active
        ? { connectionId: row.id, refreshToken: cipher.open(row.tokenCiphertext!, tokenContext(row)) }
        : null;
      const startedAt = Date.now();

      const stateRead: Read<AccountState> | null = auth
        ? await cached(states, key, () => {
            operations.stateReads += 1;
            return api.accountState(auth, access, request.signal);
          })
        : null;
      const outage: ShopOutage | null =
        conditions.shop_cannot_sell.enabled && target.linkedMonitorId
          ? await linkedShops.outageOf(target.linkedMonitorId)
          : null;
      const wantsFigures =
        conditions.zero_impressions.enabled || conditions.spend_anomaly.enabled || outage !== null;
      const localNow = localTime(target.customer.timeZone, request.now);
      const figureRead: Read<HourFigures[]> | null =
        auth && stateRead?.value && wantsFigures
          ? await cached(
              figures,
              `${target.connectionId} ${target.customer.customerId} ${localNow.date}`,
              () => {
                operations.figureReads += 1;
                return api.hourlyFigures(auth, access, datesNeeded(localNow), request.signal);
              },
              FIGURES_TTL_MS,
            )
          : null;

      const error = stateRead?.error ?? figureRead?.error ?? null;
      if (row && error?.kind === 'auth') await lose(row, error);
      else if (error && error.kind !== 'quota' && error.kind !== 'refused') {
        log.warn(
          { customer: target.customer.customerId, err: error },
          'google ads check could not read the account',
        );
      }
      const stateError = stateRead?.error ?? null;
      const notEnabled = stateError?.has('CUSTOMER_NOT_ENABLED') ?? false;
      const unreachable = stateError?.kind === 'refused' && stateError.has('USER_PERMISSION_DENIED');
      const who = row ? `${row.name || row.account}` : 'the Google account';
      const lostBy = !row
        ? 'The Google connection was removed.'
        : !active
          ? (row.statusReason ?? `The connection is ${row.status}.`)
          : stateError?.kind === 'auth' || figureRead?.error?.kind === 'auth'
            ? (stateError ?? figureRead!.error!).message
            : null;
      const state = stateRead?.value ?? null;
      const cannotRead = lostBy
        ? `Vigil cannot read ${accountName(target)} without access`
        : (stateError?.message ?? `${accountName(target)} could not be read`);

      const results: ConditionResult[] = [];
      if (conditions.connection_lost.enabled) {
        results.push(
          lostBy
            ? {
                key: 'connection_lost',
                ok: false,
                confirmed: true,
                summary: `Vigil lost access to Google Ads account ${accountName(target)} through ${who}. ${lostBy} Reconnect the Google account.`,
              }
            : unreachable
              ? {
                  key: 'connection_lost',
                  ok: false,
                  confirmed: true,
                  summary: `${who} can no longer reach Google Ads account ${accountName(target)}: Google refused access (USER_PERMISSION_DENIED). Reconnect with a Google account that has access to it.`,
                }
              : state || notEnabled
                ? {
                    key: 'connection_lost',
                    ok: true,
                    summary: `Vigil can read ${accountName(target, state)} through ${who}.`,
                  }
                : { key: 'connection_lost', ok: null, summary: cannotRead },
        );
      }
      if (conditions.account_not_enabled.enabled) {
        results.push(
          state
            ? judgeAccount(target, state)
            : notEnabled
              ? {
                  key: 'account_not_enabled',
                  ok: false,
                  confirmed: true,
                  summary: `Google Ads account ${accountName(target)} is not enabled (cancelled or closed): Google no longer serves or reads it.`,
                }
              : { key: 'account_not_enabled', ok: null, summary: cannotRead },
        );
      }
      const judge = (key: keyof GoogleAdsConditions, judgeWith: (s: AccountState) => ConditionResult) => {
        if (conditions[key].enabled)
          results.push(state ? judgeWith(state) : { key, ok: null, summary: cannotRead });
      };
      judge('ad_disapproved', (s) => judgeAds(target, s));
      judge('campaign_not_eligible', (s) => judgeCampaigns(target, s));

      const points = figureRead?.value ?? null;
      const noFigures = figureRead?.error?.message ?? cannotRead;
      const baseline = points ? baselineOf(points, localNow) : null;
      if (conditions.zero_impressions.enabled) {
        results.push(
          baseline ? judgeImpressions(baseline) : { key: 'zero_impressions', ok: null, summary: noFigures },
        );
      }
      if (conditions.spend_anomaly.enabled) {
        results.push(
          baseline
            ? judgeSpend(baseline, conditions.spend_anomaly.changePercent, target.customer.currency)
            : { key: 'spend_anomaly', ok: null, summary: noFigures },
        );
      }
      if (conditions.shop_cannot_sell.enabled) {
        results.push(
          target.linkedMonitorId
            ? shopCannotSell({
                outage,
                points,
                timeZone: target.customer.timeZone,
                currency: target.customer.currency,
                now: request.now,
                pause: pauseWhat(target, state),
              })
            : { key: 'shop_cannot_sell', ok: true, summary: 'No shop monitor is linked to these ads.' },
        );
      }
      return {
        responseMs: stateRead ? Date.now() - startedAt : null,
        statusCode: null,
        conditions: holdBack(results, outage),
      };
    },
  };
}
