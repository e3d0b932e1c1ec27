import type { ConditionResult } from '../../checks/checker.ts';
import { createBatchLoader } from '../../lib/batch-loader.ts';
import type { IncidentRepository } from '../../modules/alerts/incident.repository.ts';
import { type HourFigures, localTime, money, spendSince } from './baseline.ts';

/**
 * Ads paying for a shop that cannot sell: an ads monitor may link a website or Shopify monitor of the same
 * person. While that monitor has an unresolved incident, the ads monitor's `shop_cannot_sell` fails with the
 * spend since the shop broke and what to pause, and the account's own failing conditions are held back (not
 * judged), so the person gets one alert about the money instead of three about its symptoms (a site that is
 * down also gets ads disapproved for "destination not working" and drops the spend).
 */

export const SHOP_CANNOT_SELL = 'shop_cannot_sell';
/** Conditions that still alert while the shop is down: the link itself, and losing access to the account. */
const NEVER_HELD_BACK = new Set([SHOP_CANNOT_SELL, 'connection_lost']);
/** Rows asked for in the same moment are read with one statement. */
const BATCH_MS = 5;

export interface ShopOutage {
  monitorId: string;
  /** The linked monitor's name. */
  name: string;
  since: Date;
  /** The incident's own words ("HTTP 503 from https://shop.example"). */
  summary: string;
}

export interface LinkedShops {
  /** The linked monitor's oldest unresolved incident, or null while it can sell. */
  outageOf(monitorId: string): Promise<ShopOutage | null>;
}

/** Batches the lookups of the checks running at the same moment into one query. */
export function createLinkedShops(incidents: Pick<IncidentRepository, 'oldestUnresolved'>): LinkedShops {
  const load = createBatchLoader(async (monitorIds) => {
    const rows = await incidents.oldestUnresolved(monitorIds);
    return new Map(
      rows.map((row) => [
        row.monitorId,
        { monitorId: row.monitorId, name: row.name, since: row.openedAt, summary: row.summary },
      ]),
    );
  }, BATCH_MS);
  return { outageOf: async (monitorId) => (await load(monitorId)) ?? null };
}

/**
 * The `shop_cannot_sell` verdict. `points` are the account's hourly figures (today at least), used for the spend
 * since the shop broke; `pause` names what to pause ("the campaigns Summer sale and Hoodies"). A shop that broke
 * before today counts from midnight (the account's time) and says so.
 */
export function shopCannotSell(input: {
  outage: ShopOutage | null;
  points: readonly HourFigures[] | null;
  timeZone: string;
  currency: string;
  now: Date;
  pause: string;
}): ConditionResult {
  const { outage } = input;
  if (!outage) return { key: SHOP_CANNOT_SELL, ok: true, summary: 'The linked shop can sell.' };
  const today = localTime(input.timeZone, input.now).date;
  const since = localTime(input.timeZone, outage.since);
  const fromMidnight = since.date < today;
  const spent = input.points
    ? spendSince(input.points, fromMidnight ? { ...since, date: today, hour: 0, hourFraction: 0 } : since)
    : null;
  const spend =
    spent === null
      ? 'The ads keep spending'
      : `The ads spent ${money(spent, input.currency)} ${fromMidnight ? 'since midnight' : 'since then'}`;
  return {
    key: SHOP_CANNOT_SELL,
    ok: false,
    confirmed: true,
    summary: `Ads are spending while ${outage.name} cannot sell (${outage.summary}, since ${outage.since.toISOString().slice(11, 16)} UTC). ${spend}: pause ${input.pause} until it is back.`,
  };
}

/** While the shop cannot sell, the account's own failing conditions are held back instead of alerting too. */
export function holdBack(results: ConditionResult[], outage: ShopOutage | null): ConditionResult[] {
  if (!outage) return results;
  return results.map((result) =>
    result.ok === false && !NEVER_HELD_BACK.has(result.key)
      ? {
          key: result.key,
          ok: null,
          summary: `held back while ${outage.name} cannot sell (${result.summary})`,
        }
      : result,
  );
}
