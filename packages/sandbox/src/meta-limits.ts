import type { MetaAccount } from './meta-catalogue.ts';
import { GraphError } from './meta-oauth.ts';

/*
 * Meta's rate limits as the sandbox keeps them: points charged in a rolling window per ad account and use
 * case, the usage headers Graph answers with, and the error of an ad account over its limit.
 */

export type UseCase = 'ads_management' | 'ads_insights';

/** Points charged in a rolling window, one slot a second, so a budget of thousands stays small. */
export class RollingWindow {
  #slots: [number, number][] = [];
  #sum = 0;

  add(at: number, points: number): void {
    const second = Math.floor(at / 1000) * 1000;
    const last = this.#slots.at(-1);
    if (last && last[0] === second) last[1] += points;
    else this.#slots.push([second, points]);
    this.#sum += points;
  }

  used(now: number, windowMs: number): number {
    let drop = 0;
    while (drop < this.#slots.length && this.#slots[drop]![0] <= now - windowMs) {
      this.#sum -= this.#slots[drop]![1];
      drop += 1;
    }
    if (drop) this.#slots.splice(0, drop);
    return this.#sum;
  }

  /** When enough points leave the window for `cost` more to fit in `budget`. */
  freeAt(now: number, windowMs: number, budget: number, cost: number): number {
    let used = this.used(now, windowMs);
    for (const [at, points] of this.#slots) {
      if (used + cost <= budget) break;
      used -= points;
      if (used + cost <= budget) return at + windowMs;
    }
    return now;
  }

  /** Seconds until the oldest points leave the window. */
  resetIn(now: number, windowMs: number): number {
    this.used(now, windowMs);
    const oldest = this.#slots[0];
    return oldest ? Math.ceil((oldest[0] + windowMs - now) / 1000) : 0;
  }
}

/**
 * X-Business-Use-Case-Usage and X-Ad-Account-Usage for a call charged (or refused) under `useCase`: each use
 * case's share of the account's budget, and for the call's own when access comes back (`regainAt`).
 */
export function accountUsageHeaders(usage: {
  account: MetaAccount;
  windows: Record<UseCase, RollingWindow>;
  useCase: UseCase;
  now: number;
  windowMs: number;
  budget: number;
  throttled: boolean;
  regainAt: number;
  tier: string;
}): Record<string, string> {
  const { account, windows, now, windowMs, budget, tier } = usage;
  const percentOf = (type: UseCase) => (windows[type].used(now, windowMs) * 100) / budget;
  const useCaseUsage = (type: UseCase) => {
    const own = type === usage.useCase;
    const percent = Math.round(own && usage.throttled ? Math.max(100, percentOf(type)) : percentOf(type));
    return {
      type,
      call_count: percent,
      total_cputime: Math.floor(percent / 4),
      total_time: Math.floor(percent / 3),
      estimated_time_to_regain_access: own ? Math.ceil((usage.regainAt - now) / 60_000) : 0,
      ads_api_access_tier: tier,
    };
  };
  return {
    'X-Business-Use-Case-Usage': JSON.stringify({
      [account.business?.id ?? account.accountId]: [
        useCaseUsage('ads_management'),
        useCaseUsage('ads_insights'),
      ],
    }),
    'X-Ad-Account-Usage': JSON.stringify({
      acc_id_util_pct: Math.round(percentOf('ads_management') * 100) / 100,
      reset_time_duration: windows.ads_management.resetIn(now, windowMs),
      ads_api_access_tier: tier,
    }),
  };
}

/** The error of an ad account over its budget for `useCase` (80000 insights, 80004 management). */
export function accountLimitError(useCase: UseCase): GraphError {
  const more =
    'Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting';
  const options = { subcode: 2446079, transient: true };
  return useCase === 'ads_insights'
    ? new GraphError(
        80000,
        `(#80000) There have been too many calls from this ad-account. ${more}#ads-insights.`,
        options,
      )
    : new GraphError(
        80004,
        `(#80004) There have been too many calls to this ad-account. ${more}#ads-management.`,
        options,
      );
}
