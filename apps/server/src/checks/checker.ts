import type { ServiceId } from '@vigil/contracts';

/**
 * One condition's verdict in one check. `ok: null` means the check could not judge it (the site did not
 * answer, so there is no body to search): it neither counts towards an incident nor resolves one.
 */
export interface ConditionResult {
  key: string;
  ok: boolean | null;
  /** A sentence a merchant understands: "HTTP 503 from https://shop.example". */
  summary: string;
  /**
   * The provider itself reported this state (a product's stock from the shop's own API, an uninstalled app):
   * a fact, not a measurement that a network blip could fake, so it opens an incident without re-checks.
   */
  confirmed?: boolean;
}

export interface CheckOutcome {
  /** Time to the final response's headers (after redirects); null when nothing answered. */
  responseMs: number | null;
  statusCode: number | null;
  /** One verdict per enabled condition. */
  conditions: ConditionResult[];
}

export interface CheckRequest {
  /** The monitor's `target` and `conditions` columns, as stored (validated by the API on the way in). */
  target: unknown;
  conditions: unknown;
  /** For date-based conditions (certificate expiry). */
  now: Date;
  /**
   * The slot being checked. Monitors of one `slotGroup` and interval share their slots, so a checker that reads
   * an account once for all its monitors keys that read by the slot: a check asked for by hand (Check now, a
   * webhook) has a slot of its own and reads afresh.
   */
  slotAt: Date;
  /**
   * Aborted when the engine gives up on the check (its hard deadline). Absent for a checker that ends its checks
   * itself in time (`Checker.timeoutMs`).
   */
  signal?: AbortSignal;
}

/** What checks one service's monitors. One file per service, registered in `all-checkers.ts`. */
export interface Checker {
  service: ServiceId;
  /** Never throws for a failing target: failures are verdicts. Throws only for a bug or a bad monitor row. */
  check(request: CheckRequest): Promise<CheckOutcome>;
  /**
   * The longest a check of these conditions takes, for a checker that gives up by itself (the website checker's
   * timeout). Within the engine's deadline, the engine arms none for the check and passes no signal: making an
   * `AbortController` and its first listener costs about 7 µs, and more in garbage collection; at 100,000 monitors
   * the two a website check had were a fifth of a worker's CPU (bench/README.md, twenty-third session).
   */
  timeoutMs?(conditions: unknown): number;
  /**
   * The account a monitor watches through (a shop), for services that serve all of an account's monitors with
   * one provider query per interval: monitors of one group and interval get slots on a shared grid, so they
   * come due together, and each group's grid is offset by a hash of its name, so groups spread over the
   * interval instead of all coming due at once.
   */
  slotGroup?(target: unknown): string | null;
}
