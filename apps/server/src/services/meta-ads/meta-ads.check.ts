import type { MetaAdsConditions, MetaAdsTarget } from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Checker, CheckOutcome, CheckRequest, ConditionResult } from '../../checks/checker.ts';
import { DAY_MS } from '../../lib/clock.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { IncidentRepository } from '../../modules/alerts/incident.repository.ts';
import type { ConnectionRepository, ConnectionRow } from '../../modules/connections/connection.repository.ts';
import { tokenContext } from '../../modules/connections/connection.service.ts';
import { baselineOf, datesNeeded, judgeSpend, localTime, money } from '../ads/baseline.ts';
import {
  createLinkedShops,
  holdBack,
  SHOP_CANNOT_SELL,
  shopCannotSell,
  type ShopOutage,
} from '../ads/linked-shop.ts';
import { type AccountRead, disableReasonLabel, statusLabel } from './meta-ads.api.ts';
import type { MetaApi } from './meta-ads.api.ts';
import { MetaError, SLOW_DOWN_PERCENT } from './meta-ads.client.ts';
import { createBatchLoader } from '../../lib/batch-loader.ts';

/** An account's read serves every check of its monitors within this long (under the 30 s shortest interval). */
export const READ_TTL_MS = 20_000;
/** Checks of one account that ask within this long join one read; connection rows likewise join one query. */
const JOIN_MS = 5;
/** A token that ends within this long raises the week's warning. */
export const EXPIRY_WARNING_MS = 7 * DAY_MS;
const FORGET_EVERY_MS = 10 * 60_000;
/** Ad sets and ads named in one alert before "and N more". */
const NAMED = 3;

export interface MetaCheckerDeps {
  connections: Pick<ConnectionRepository, 'findMany' | 'setStatus'>;
  incidents: Pick<IncidentRepository, 'oldestUnresolved'>;
  cipher: TokenCipher;
  api: MetaApi;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  now?: () => number;
}

/** What one read of an account gave: the account's state, or why it could not be read. */
export type ReadOutcome =
  | {
      ok: true;
      read: AccountRead;
      /** Why figures that were wanted were not read (close to Meta's limit, or over it for insights). */
      figuresSkipped: string | null;
    }
  | { ok: false; error: MetaError };

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);

/** "Hoodies — lookalike US", "A and B", "A, B, C and 2 more". */
export function listNames(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  if (names.length <= NAMED) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, NAMED).join(', ')} and ${names.length - NAMED} more`;
}

/**
 * The `facebook_ads` checker. All monitors of one ad account (through one connection) share a slot group, so
 * they come due together, and one Graph batch request per interval serves them all: the account, its ad sets,
 * its rejected ads and, when some monitor needs figures, today's and the baseline days' hourly insights. What
 * Meta reports is a fact (`confirmed`); a rate limit is obeyed (no calls until the time Meta named) and its
 * conditions are "Not checked", never an incident.
 */
export function createMetaAdsChecker(deps: MetaCheckerDeps): Checker & { readsMade(): number } {
  const { connections, cipher, api, log } = deps;
  const now = deps.now ?? Date.now;
  const linkedShops = createLinkedShops(deps.incidents);
  const reads = new Map<string, { at: number; withFigures: boolean; value: Promise<ReadOutcome> }>();
  /** Reads about to start, joined by the checks of the same moment (whose needs they add up). */
  const gathering = new Map<string, { figures: boolean; value: Promise<ReadOutcome> }>();
  const loggedBlocks = new Map<string, number>();
  let readsMade = 0;
  let lastForget = now();

  const loadConnection = createBatchLoader(
    async (ids) => new Map((await connections.findMany(ids)).map((row) => [row.id, row])),
    JOIN_MS,
  );

  async function readNow(
    key: string,
    row: ConnectionRow,
    accountId: string,
    timeZone: string,
    figures: boolean,
  ): Promise<ReadOutcome> {
    const standing = api.client.usage.standing(accountId);
    // Close to the limit, the optional read (insights, the costliest) waits: the account's state comes first.
    const skipped = !figures
      ? null
      : standing.insightsBlockedUntil
        ? `Meta rate limit reached for this ad account's insights: next try at ${hhmm(standing.insightsBlockedUntil)} UTC`
        : standing.percent > SLOW_DOWN_PERCENT
          ? `Meta usage for this ad account is at ${Math.round(standing.percent)}% of its limit: the spend figures were skipped to stay under it`
          : null;
    const skipFigures = skipped !== null;
    const figuresFor = figures && !skipFigures ? datesNeeded(localTime(timeZone, new Date(now()))) : null;
    try {
      if (!standing.blockedUntil) readsMade += 1;
      const read = await api.readAccount(
        cipher.open(row.tokenCiphertext!, tokenContext(row)),
        accountId,
        figuresFor,
      );
      return { ok: true, read, figuresSkipped: skipped };
    } catch (error) {
      if (!(error instanceof MetaError)) throw error;
      if (error.kind === 'auth') {
        await connections.setStatus([row.id], 'lost', error.message, new Date(now()));
      }
      if (error.kind === 'rate' && error.details.retryAt && loggedBlocks.get(key) !== error.details.retryAt) {
        loggedBlocks.set(key, error.details.retryAt);
        log.warn(
          { account: `act_${accountId}`, until: new Date(error.details.retryAt).toISOString() },
          'Meta rate limit: no calls to this ad account until then',
        );
      }
      return { ok: false, error };
    }
  }

  /** The account's read: a current one, the one being gathered this moment, or a new one. */
  function readAccount(
    row: ConnectionRow,
    target: MetaAdsTarget,
    figures: boolean,
    slotAt: Date,
  ): Promise<ReadOutcome> {
    const accountId = target.account.accountId;
    // One read per account and slot: its monitors share the slot; a check by hand has its own.
    const key = `${row.id}:${accountId}:${slotAt.getTime()}`;
    const hit = reads.get(key);
    if (hit && now() - hit.at < READ_TTL_MS && (hit.withFigures || !figures)) return hit.value;
    const joining = gathering.get(key);
    if (joining) {
      joining.figures ||= figures;
      return joining.value;
    }
    let settle!: (read: Promise<ReadOutcome>) => void;
    const entry = { figures, value: new Promise<ReadOutcome>((resolve) => (settle = resolve)) };
    setTimeout(() => {
      gathering.delete(key);
      const value = readNow(key, row, accountId, target.account.timeZone, entry.figures);
      reads.set(key, { at: now(), withFigures: entry.figures, value });
      // Forgotten after its time, so the map holds only the accounts being watched.
      void value.then(
        () => setTimeout(() => reads.get(key)?.value === value && reads.delete(key), READ_TTL_MS).unref(),
        () => reads.get(key)?.value === value && reads.delete(key),
      );
      settle(value);
    }, JOIN_MS);
    gathering.set(key, entry);
    return entry.value;
  }

  return {
    service: 'facebook_ads',
    slotGroup: (target) => {
      const t = target as MetaAdsTarget;
      return t.connectionId && t.account?.accountId ? `${t.connectionId}:${t.account.accountId}` : null;
    },
    readsMade: () => readsMade,

    async check(request: CheckRequest): Promise<CheckOutcome> {
      const target = request.target as MetaAdsTarget;
      const conditions = request.conditions as MetaAdsConditions;
      const at = request.now;
      if (now() - lastForget > FORGET_EVERY_MS) {
        lastForget = now();
        api.client.usage.forgetIdle();
        for (const [key, until] of loggedBlocks) if (until < now()) loggedBlocks.delete(key);
      }
      const linked = conditions.shop_cannot_sell.enabled ? target.linkedMonitorId : null;
      const [row, outage] = await Promise.all([
        loadConnection(target.connectionId),
        linked ? linkedShops.outageOf(linked) : Promise.resolve(null),
      ]);
      const active = row?.status === 'active' && row.tokenCiphertext !== null;
      const needsRead =
        conditions.account_status.enabled ||
        conditions.adset_disapproved.enabled ||
        conditions.spend_cap.enabled ||
        conditions.spend_anomaly.enabled ||
        (linked !== null && outage !== null);
      const figures = conditions.spend_anomaly.enabled || outage !== null;
      const outcome = active && needsRead ? await readAccount(row, target, figures, request.slotAt) : null;
      return {
        responseMs: null,
        statusCode: null,
        conditions: judgeAll({ target, conditions, row, active, outcome, outage, at }),
      };
    },
  };
}

/** Every enabled condition's verdict, from the connection and the account's read. */
export function judgeAll(input: {
  target: MetaAdsTarget;
  conditions: MetaAdsConditions;
  row: ConnectionRow | undefined;
  active: boolean;
  outcome: ReadOutcome | null;
  outage: ShopOutage | null;
  at: Date;
}): ConditionResult[] {
  const { target, conditions, row, outcome, outage, at } = input;
  const name = target.account.name;
  const lostBy = !row
    ? 'the Facebook account’s connection was removed'
    : !input.active
      ? (row.statusReason ?? `the connection is ${row.status}`)
      : outcome && !outcome.ok && outcome.error.kind === 'auth'
        ? outcome.error.message
        : null;
  const results: ConditionResult[] = [];
  if (conditions.connection_lost.enabled) {
    results.push(judgeConnection(name, row, lostBy, at));
  }
  const read = outcome?.ok ? outcome.read : null;
  const cannotRead = lostBy
    ? `Vigil cannot read ${name} without access to the Facebook account`
    : outcome && !outcome.ok
      ? outcome.error.kind === 'rate'
        ? `Meta rate limit reached for this ad account: next try at ${hhmm(outcome.error.details.retryAt ?? at.getTime())} UTC`
        : `${name} could not be read: ${outcome.error.message}`
      : `${name} could not be read`;
  const judge = (key: keyof MetaAdsConditions, judgeWith: (read: AccountRead) => ConditionResult) => {
    if (!conditions[key].enabled) return;
    results.push(read ? judgeWith(read) : { key, ok: null, summary: cannotRead });
  };
  judge('account_status', judgeAccountStatus);
  judge('adset_disapproved', (r) => judgeAdSets(target, r));
  judge('spend_cap', (r) => judgeSpendCap(r, conditions.spend_cap.percent));
  judge('spend_anomaly', (r) => {
    if (outcome?.ok && outcome.figuresSkipped !== null) {
      return { key: 'spend_anomaly', ok: null, summary: outcome.figuresSkipped };
    }
    if (!r.figures) {
      return {
        key: 'spend_anomaly',
        ok: null,
        summary: `Meta did not give ${name}’s spend figures${r.figuresError ? `: ${r.figuresError.message}` : ''}`,
      };
    }
    return judgeSpend(
      baselineOf(r.figures, localTime(r.account.timeZone, at)),
      conditions.spend_anomaly.changePercent,
      r.account.currency,
    );
  });
  if (conditions.shop_cannot_sell.enabled) {
    results.push(
      target.linkedMonitorId
        ? shopCannotSell({
            outage,
            points: read?.figures ?? null,
            timeZone: target.account.timeZone,
            currency: target.account.currency,
            now: at,
            pause: target.adSets.length
              ? `the ad sets ${listNames(target.adSets.map((adSet) => adSet.name))}`
              : `the ad sets of ${name}`,
          })
        : { key: SHOP_CANNOT_SELL, ok: true, summary: 'No shop monitor is linked to these ads.' },
    );
  }
  return holdBack(results, outage);
}

/** Access lost (a connection not active, or Meta's 190), or a token that ends within the week. */
export function judgeConnection(
  accountName: string,
  row: ConnectionRow | undefined,
  lostBy: string | null,
  at: Date,
): ConditionResult {
  const key = 'connection_lost';
  if (lostBy) {
    return {
      key,
      ok: false,
      confirmed: true,
      summary: `Vigil lost access to ${accountName} on Meta: ${lostBy.replace(/\.$/, '')}. Reconnect the Facebook account in Vigil.`,
    };
  }
  const ends = row?.tokenExpiresAt ?? null;
  if (ends && ends.getTime() - at.getTime() <= EXPIRY_WARNING_MS) {
    return {
      key,
      ok: false,
      confirmed: true,
      summary: `Meta access for ${row!.name} ends on ${ends.toISOString().slice(0, 10)}: reconnect in Vigil before then`,
    };
  }
  return {
    key,
    ok: true,
    summary: `Vigil can read ${accountName} through ${row?.name ?? 'the connection'}${ends ? ` (access until ${ends.toISOString().slice(0, 10)})` : ''}`,
  };
}

/** `account_status` not 1: which status, and `disable_reason` in words. */
export function judgeAccountStatus(read: AccountRead): ConditionResult {
  const { account } = read;
  if (account.accountStatus === 1) {
    return { key: 'account_status', ok: true, summary: `${account.name} is active` };
  }
  const reason = disableReasonLabel(account.disableReason);
  return {
    key: 'account_status',
    ok: false,
    confirmed: true,
    summary: `${account.name} is ${statusLabel(account.accountStatus)} (account_status ${account.accountStatus})${reason ? `: ${reason}` : ''}`,
  };
}

const REJECTED = new Set(['DISAPPROVED', 'WITH_ISSUES']);
/** Ad sets whose ads do not deliver anyway: their ads are not judged when the whole account is watched. */
const NOT_RUNNING = new Set(['PAUSED', 'CAMPAIGN_PAUSED', 'ARCHIVED', 'DELETED']);

/** A watched ad set, or one of its ads, DISAPPROVED or WITH_ISSUES: named, with the issue text. */
export function judgeAdSets(target: MetaAdsTarget, read: AccountRead): ConditionResult {
  const key = 'adset_disapproved';
  const chosen = new Set(target.adSets.map((adSet) => adSet.adSetId));
  const watched = (adSetId: string) =>
    chosen.size > 0 ? chosen.has(adSetId) : !NOT_RUNNING.has(read.adSets.get(adSetId)?.effectiveStatus ?? '');
  const problems: string[] = [];
  for (const adSet of read.adSets.values()) {
    if (!watched(adSet.adSetId) || !REJECTED.has(adSet.effectiveStatus)) continue;
    problems.push(
      `ad set ${adSet.name} is ${adSet.effectiveStatus}${adSet.issues.length ? `: ${adSet.issues.join('; ')}` : ''}`,
    );
  }
  for (const ad of read.problemAds) {
    if (!watched(ad.adSetId) || !REJECTED.has(ad.effectiveStatus)) continue;
    const adSetName = read.adSets.get(ad.adSetId)?.name;
    problems.push(
      `ad ${ad.name}${adSetName ? ` (in ${adSetName})` : ''} is ${ad.effectiveStatus}${ad.issues.length ? `: ${ad.issues.join('; ')}` : ''}`,
    );
  }
  const scope = chosen.size
    ? 'The watched ad sets and their ads'
    : `The running ad sets and ads of ${read.account.name}`;
  if (problems.length === 0) {
    return { key, ok: true, summary: `${scope} have no rejection or issue` };
  }
  const shown = problems.slice(0, NAMED).join('; ');
  const more = problems.length > NAMED ? `; and ${problems.length - NAMED} more` : '';
  return {
    key,
    ok: false,
    confirmed: true,
    summary: `${read.account.name}: ${shown.charAt(0).toUpperCase()}${shown.slice(1)}${more}`,
  };
}

/** `amount_spent` at or over `percent` % of `spend_cap`. */
export function judgeSpendCap(read: AccountRead, percent: number): ConditionResult {
  const key = 'spend_cap';
  const { account } = read;
  if (account.spendCap === null) return { key, ok: true, summary: `${account.name} has no spend cap` };
  const cap = Number(account.spendCap);
  const spent = Number(account.amountSpent);
  const share = cap > 0 ? (spent / cap) * 100 : 100;
  const words = `${account.name} has spent ${money(spent, account.currency)} of its ${money(cap, account.currency)} spend cap (${Math.floor(share)}%)`;
  return share >= percent
    ? { key, ok: false, confirmed: true, summary: `${words}: its ads stop at the cap` }
    : { key, ok: true, summary: words };
}
