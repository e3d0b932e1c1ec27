import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { HOUR_MS, MINUTE_MS } from '../../lib/clock.ts';
import type { RateLimitRepository } from './rate-limit.repository.ts';

export interface LimitRule {
  key: string;
  limit: number;
  windowMs: number;
}

/** The limits of ARCHITECTURE.md, keyed by account (normalised email) and by client address. */
export const LIMITS = {
  /** Guesses at one account from one address: the lock that keeps brute force out without locking the owner. */
  signInByAccountAndAddress: (email: string, ip: string): LimitRule => ({
    key: `sign-in:account-address:${email}:${ip}`,
    limit: 5,
    windowMs: 15 * MINUTE_MS,
  }),
  /** Guesses at one account from anywhere (ASVS 2.2.1's 100 an hour); past it only fresh addresses get a try. */
  signInByAccount: (email: string): LimitRule => ({
    key: `sign-in:account:${email}`,
    limit: 100,
    windowMs: HOUR_MS,
  }),
  signInByAddress: (ip: string): LimitRule => ({
    key: `sign-in:address:${ip}`,
    limit: 20,
    windowMs: 15 * MINUTE_MS,
  }),
  /** Wrong current passwords on the change-password form, which a borrowed session could otherwise guess. */
  changePasswordByAccount: (email: string): LimitRule => ({
    key: `change-password:account:${email}`,
    limit: 5,
    windowMs: 15 * MINUTE_MS,
  }),
  /** Enough for a person or a family behind one router; a script making accounts in bulk is stopped. */
  registerByAddress: (ip: string): LimitRule => ({
    key: `register:address:${ip}`,
    limit: 20,
    windowMs: HOUR_MS,
  }),
  resetEmailByAccount: (email: string): LimitRule => ({
    key: `reset-email:account:${email}`,
    limit: 3,
    windowMs: HOUR_MS,
  }),
  resetEmailByAddress: (ip: string): LimitRule => ({
    key: `reset-email:address:${ip}`,
    limit: 10,
    windowMs: HOUR_MS,
  }),
  /** Each try resolves the typed shop over the network: a person needs a few, a script many. */
  connectByUser: (userId: string): LimitRule => ({
    key: `connect:user:${userId}`,
    limit: 30,
    windowMs: HOUR_MS,
  }),
  checkNowByMonitor: (monitorId: string): LimitRule => ({
    key: `check-now:monitor:${monitorId}`,
    limit: 10,
    windowMs: 10 * MINUTE_MS,
  }),
};

/** One counted attempt: how many the window holds, and how long until it ends if that is over the limit. */
export interface Hit {
  count: number;
  retryAfterMs: number;
}

/** "in 1 minute", "in 12 minutes": what a person reads in the 429 message. */
export function inMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Fixed-window counters in the database, so every API process sees the same counts. `consume` counts an
 * attempt before it is checked (a burst of parallel guesses cannot slip past the limit); callers give the
 * attempt back with `refund` or `clear` when it turns out to be a success.
 */
export function createRateLimiter(deps: { rateLimits: RateLimitRepository; clock: Clock }) {
  const { rateLimits, clock } = deps;
  /** Counts one attempt against `rule` and tells whether it is over the limit, without refusing it. */
  async function hit(rule: LimitRule): Promise<Hit> {
    const now = clock.now();
    const counter = await rateLimits.hit(rule.key, now, rule.windowMs);
    const over = counter.count > rule.limit;
    return {
      count: counter.count,
      retryAfterMs: over ? counter.windowStartedAt.getTime() + rule.windowMs - now.getTime() : 0,
    };
  }

  /** Refuses with 429 when any of the counted attempts is over its limit, waiting for the longest window. */
  function refuseIfOver(hits: Hit[], message: (retryIn: string) => string): void {
    const retryAfterMs = Math.max(0, ...hits.map((h) => h.retryAfterMs));
    if (retryAfterMs > 0) {
      const seconds = Math.ceil(retryAfterMs / 1000);
      throw new AppError('RATE_LIMITED', message(inMinutes(seconds)), { retryAfterSeconds: seconds });
    }
  }

  return {
    hit,
    refuseIfOver,
    async consume(rules: LimitRule[], message: (retryIn: string) => string): Promise<void> {
      const hits: Hit[] = [];
      for (const rule of rules) hits.push(await hit(rule));
      refuseIfOver(hits, message);
    },
    /** Gives back one counted attempt; `repo` puts it in the caller's transaction. */
    refund: (rule: LimitRule, repo: RateLimitRepository = rateLimits) => repo.refund(rule.key),
    clear: (rule: LimitRule, repo: RateLimitRepository = rateLimits) => repo.clear(rule.key),
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
