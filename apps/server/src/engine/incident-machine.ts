import type { IncidentState } from '@vigil/contracts';
import type { ConditionResult } from '../checks/checker.ts';
import { addMs, MINUTE_MS } from '../lib/clock.ts';

/**
 * The incident rules, as pure functions of a monitor's stored state, a check's verdicts and the time.
 *
 * - A condition failing `confirmations` checks in a row opens an incident for it (one unresolved per
 *   monitor and condition); the first alert goes out at once ('opened'). A failure the provider reported as
 *   a fact (`confirmed`: a product's stock from the shop's API) opens it at once.
 * - While it is open (not acknowledged), it alerts again every `repeatIntervalMinutes` ('repeat-1',
 *   'repeat-2', …); 0 means no repeats. Acknowledging stops the repeats, not the recovery notice.
 * - One passing check resolves it ('resolved', the recovery notice): a site that answers correctly once
 *   is back for the merchant, and waiting for more would delay the good news by whole intervals.
 * - A condition the check could not judge (`ok: null`) keeps its state; a condition switched off while its
 *   incident is open resolves it.
 * - While a failure is being confirmed (failed, not yet `confirmations` times), the monitor is 'confirming'
 *   and its next check comes after the retry interval (`CONFIRM_RETRY_SECONDS`), not a whole interval.
 * - Paused monitors are neither checked nor re-alerted (the engine never claims them and the repeat sweep
 *   skips them), so the machine never sees them.
 */

/** Per condition, stored in `monitors.check_state`. */
export interface ConditionState {
  /** Consecutive failed checks. */
  failures: number;
  /** An unresolved incident exists for this condition. */
  open: boolean;
}
export type CheckState = Record<string, ConditionState>;

export interface MonitorRules {
  confirmations: number;
  repeatIntervalMinutes: number;
}

export type Transition =
  | { kind: 'open'; conditionKey: string; summary: string; nextAlertAt: Date | null }
  | { kind: 'resolve'; conditionKey: string; summary: string };

export interface CheckVerdict {
  state: CheckState;
  transitions: Transition[];
  /** down: an incident is open; confirming: a condition failed but has not yet failed `confirmations` times. */
  status: 'up' | 'confirming' | 'down';
}

export function applyCheck(
  rules: MonitorRules,
  previous: CheckState,
  results: ConditionResult[],
  now: Date,
): CheckVerdict {
  const state: CheckState = {};
  const transitions: Transition[] = [];
  for (const result of results) {
    const before = previous[result.key] ?? { failures: 0, open: false };
    if (result.ok === null) {
      state[result.key] = before;
    } else if (result.ok) {
      state[result.key] = { failures: 0, open: false };
      if (before.open)
        transitions.push({ kind: 'resolve', conditionKey: result.key, summary: result.summary });
    } else {
      const failures = before.failures + 1;
      const opens = !before.open && (failures >= rules.confirmations || result.confirmed === true);
      state[result.key] = { failures, open: before.open || opens };
      if (opens) {
        transitions.push({
          kind: 'open',
          conditionKey: result.key,
          summary: result.summary,
          nextAlertAt: firstRepeatAt(rules, now),
        });
      }
    }
  }
  for (const [key, before] of Object.entries(previous)) {
    if (before.open && !(key in state)) {
      transitions.push({
        kind: 'resolve',
        conditionKey: key,
        summary: 'This condition is no longer checked',
      });
    }
  }
  return { state, transitions, status: statusOf(state) };
}

/** What a monitor's conditions say about it: an open incident, failures still being confirmed, or none. */
export function statusOf(state: CheckState): CheckVerdict['status'] {
  const conditions = Object.values(state);
  if (conditions.some((condition) => condition.open)) return 'down';
  return conditions.some((condition) => condition.failures > 0) ? 'confirming' : 'up';
}

export function firstRepeatAt(rules: Pick<MonitorRules, 'repeatIntervalMinutes'>, now: Date): Date | null {
  return rules.repeatIntervalMinutes > 0 ? addMs(now, rules.repeatIntervalMinutes * MINUTE_MS) : null;
}

export interface RepeatCandidate {
  state: IncidentState;
  /** Alerts sent so far for this incident ('opened' is the first). */
  alertCount: number;
  nextAlertAt: Date | null;
}

export interface RepeatAlert {
  event: string;
  alertCount: number;
  nextAlertAt: Date | null;
}

/**
 * The repeat alert due for an incident now, or null. The next one is counted from now, so an incident
 * that waited (its monitor was paused) gets one reminder, not a burst.
 */
export function repeatDue(
  incident: RepeatCandidate,
  rules: Pick<MonitorRules, 'repeatIntervalMinutes'>,
  now: Date,
): RepeatAlert | null {
  if (incident.state !== 'open' || !incident.nextAlertAt || rules.repeatIntervalMinutes <= 0) return null;
  if (incident.nextAlertAt.getTime() > now.getTime()) return null;
  return {
    event: `repeat-${incident.alertCount}`,
    alertCount: incident.alertCount + 1,
    nextAlertAt: firstRepeatAt(rules, now),
  };
}

/** Acknowledging an open incident stops its repeats; the recovery notice still goes out. */
export function acknowledge<T extends RepeatCandidate>(incident: T): T {
  if (incident.state !== 'open') return incident;
  return { ...incident, state: 'acknowledged', nextAlertAt: null };
}
