import type { FastifyBaseLogger } from 'fastify';
import type { CheckerMap } from '../checks/all-checkers.ts';
import type { CheckOutcome } from '../checks/checker.ts';
import type { Repositories, Store } from '../db/store.ts';
import { MONITORS_CHANNEL, type Wakeups } from '../db/wakeups.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { applyPlanLimitsJob } from '../jobs/apply-plan-limits.job.ts';
import { sweepBillingJob } from '../jobs/apply-stripe-event.job.ts';
import { queueDeliveries } from '../jobs/deliver-alert.job.ts';
import { rollUpResultsJob } from '../jobs/roll-up-results.job.ts';
import { vacuumMonitorsJob } from '../jobs/vacuum-monitors.job.ts';
import { addMs, type Clock } from '../lib/clock.ts';
import { recordEventDeliveries } from './alert-events.ts';
import type { CheckedSlot, ClaimedMonitor } from './check.repository.ts';
import { applyCheck, repeatDue, statusOf, type CheckVerdict } from './incident-machine.ts';
import { groupOffsetMs, nextAlignedSlot, nextSlot } from './slots.ts';

/** No check runs longer than this (the website timeout condition allows up to 30 s). */
export const CHECK_DEADLINE_MS = 30_000;
/**
 * A claimed slot's lease: the longest check plus time to write its result. A worker that dies mid-check
 * leaves its slots to be claimed again by another worker when the lease runs out.
 */
export const CLAIM_LEASE_MS = CHECK_DEADLINE_MS + 5_000;
/**
 * How far ahead a worker claims: each claim takes the slots due within this time, and the worker starts each
 * check on the first start tick at or after its slot. A light load is then claimed about once a second instead
 * of every 200 ms, and no check waits for the next claim to start.
 */
export const LOOKAHEAD_MS = 1_000;
/**
 * Waiting checks start together on ticks this far apart (every slot due by the tick, the ticks on the same
 * instants in every worker), not each on its own timer: at 10,000 monitors, checks started one by one on their
 * slots cost twice the CPU per check of checks started every 200 ms (the pace of the claims before the
 * lookahead), and every 500 ms a fifth less again (bench/README.md, "Start ticks"). A check so starts within
 * this time after its slot, never before; DESIGN.md's bar for start drift is 1 s at p99.
 */
export const START_TICK_MS = 500;
/**
 * The ticks of a busy worker, one whose last claim could not take every slot within the lookahead: it is awake
 * anyway, and its held slots must start soon for it to claim more (waiting for 500 ms ticks, a worker holding
 * its limit checks no more than that limit per tick; 200,000 monitors on 2 workers fell behind so).
 */
const BUSY_START_TICK_MS = 50;
/** The sleep after a claim that took every slot within the lookahead: the next claim comes before those run out. */
const CLAIM_EVERY_MS = 800;
/**
 * A claim walks the due index from the slot after the latest this worker claimed, not from the index's start, where
 * every held slot lies (at 100,000 monitors on 2 workers, about 700: each claim stepped over all of them, a heap
 * visit each, 70 µs of PostgreSQL a check). Slots left behind that start (a lease that ran out, a row another
 * statement had locked, a re-check asked for during its check) are found by a claim from the start at least this
 * often; one that a change made due at once (a new monitor, Check now, a resumed one) by the claim after its
 * notification.
 */
const FULL_CLAIM_EVERY_MS = 1_000;
/** The shortest sleep while slots keep coming due that others hold (their leases end), so the loop never spins. */
const POLL_MS = 200;
/**
 * The longest sleep. The scheduler sleeps until the next due slot (or repeat alert), and is woken sooner when a
 * monitor is created, resumed or moved earlier (NOTIFY from a trigger on monitors); this only bounds what a lost
 * notification could delay.
 */
export const SAFETY_POLL_MS = 30_000;
/**
 * Finished checks are written together: a check that failed, or that may end a failure (its monitor was not up),
 * a monitor's first, or one whose slot was already due when claimed (Check now), at most FLUSH_DELAY_MS after it
 * finished, so confirmations, incidents, alerts and the person looking at the page wait for nothing; a passing
 * check of a healthy monitor at most QUIET_FLUSH_DELAY_MS, so a light load writes about one batch a second
 * instead of many small ones (a full batch is written at once).
 */
const FLUSH_DELAY_MS = 50;
const QUIET_FLUSH_DELAY_MS = 1_000;
/** A batch whose write failed (PostgreSQL restarting) is tried again this often while its slots are held. */
const WRITE_RETRY_MS = 500;
/**
 * How soon a failure is checked again to confirm it (peers call it the retry interval): every plan's
 * intervals are at least this long, so it never checks more often than a plan allows a monitor to.
 */
export const CONFIRM_RETRY_SECONDS = 30;
const REPEAT_SWEEP_MS = 1_000;
const REPEAT_BATCH = 100;
/** A pending delivery whose job was not handed over this long after its commit is handed over again. */
const STRANDED_DELIVERY_MS = 30_000;
const STRANDED_SWEEP_MS = 15_000;
const ROLL_UP_EVERY_SECONDS = 600;
/** Stripe events whose job was lost are re-queued this often (jobs/apply-stripe-event.job.ts). */
const BILLING_SWEEP_SECONDS = 60;
/** Plans that ended or shrank are applied, and their warnings sent, this often (jobs/apply-plan-limits.job.ts). */
const PLAN_LIMITS_EVERY_SECONDS = 60;
/** The monitors table is vacuumed this often while checks run, where no autovacuum does (jobs/vacuum-monitors.job.ts). */
const VACUUM_EVERY_SECONDS = 60;

export interface CheckEngineOptions {
  store: Store;
  queue: JobQueue;
  clock: Clock;
  checkers: CheckerMap;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /**
   * Checks running at once in this process. It holds at most `concurrency + 4 × batchSize` claimed slots,
   * running or waiting for their time within the lookahead.
   */
  concurrency: number;
  /** Monitors claimed per statement, and results written per statement. */
  batchSize: number;
  /** Wakes the sleeping scheduler when monitors change in any process; unset: it finds them at its safety poll. */
  wakeups?: Wakeups;
  /**
   * How long a claim is held, CLAIM_LEASE_MS by default. Tests shorten it to see a dead worker's slots taken
   * over within a check interval; it must stay longer than any check the worker runs.
   */
  claimLeaseMs?: number;
  /** How often the monitors table's vacuum is asked for while checks run, VACUUM_EVERY_SECONDS by default. */
  vacuumEveryMs?: number;
}

export interface CheckEngine {
  /** Starts the scheduler loop. */
  start(): void;
  /** Stops claiming, waits for running checks and writes their results. */
  stop(): Promise<void>;
  /**
   * Claims and checks everything due now, writes the results and records the incidents, then hands the
   * alerts to the job engine; resolves with how many slots were checked. Tests drive the engine with it.
   */
  runDue(): Promise<number>;
  /** Records the repeat alerts that are due; resolves with how many. */
  sweepRepeats(): Promise<number>;
  /** Hands pending deliveries whose job was lost (a crash right after their commit) to the job engine again. */
  requeueStranded(): Promise<number>;
}

/** When an incident this transition opens sends its first reminder (clock ms); Infinity: none. */
function firstRepeatAt(transition: { kind: string; nextAlertAt?: Date | null }): number {
  return transition.kind === 'open' && transition.nextAlertAt ? transition.nextAlertAt.getTime() : Infinity;
}

/** A slot this worker holds: its lease, and whether its result should be written without gathering. */
interface Claimed {
  monitor: ClaimedMonitor;
  leaseUntil: Date;
  prompt: boolean;
}

interface Finished {
  monitor: ClaimedMonitor;
  /** The claim's lease: until then no other worker checks this slot. */
  leaseUntil: Date;
  checkedAt: Date;
  outcome: CheckOutcome | null;
  error: string | null;
}

/**
 * The check scheduler of one worker process. Slots due within the lookahead are claimed from the monitors table
 * in batches (`FOR UPDATE SKIP LOCKED`, a lease per claim), each check started on its slot with at most
 * `concurrency` at once, and the results written in batches: the monitor row moves on to its next slot and the
 * result row is inserted in one statement, with the incident rules' writes in the same transaction when a check
 * opens or ends one. Alerts are handed to the job engine after the commit.
 */
export function createCheckEngine(options: CheckEngineOptions): CheckEngine {
  const { store, queue, clock, checkers, log } = options;
  const services = Object.keys(checkers);
  const running = new Set<Promise<void>>();
  /** Claimed slots waiting for their time (or for a place), earliest first. */
  let waiting: Claimed[] = [];
  let waitTimer: NodeJS.Timeout | undefined;
  /** The most slots held at once: the running checks and those waiting. */
  const holdLimit = options.concurrency + 4 * options.batchSize;
  /**
   * Slots claimed per statement: a batch, at most as many as may run at once (as before the lookahead). Larger
   * claims made PostgreSQL plan the claim as a sort of every due row when the table has no statistics yet (a
   * bitmap scan and a sort above about 55 rows on a fresh 200,000-monitor table, 0.3–1.5 s a claim).
   */
  const claimLimit = Math.min(options.batchSize, options.concurrency);
  /** The last claim took every slot within the lookahead: checks start on START_TICK_MS ticks. */
  let light = true;
  let finished: Finished[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  /** When the pending flush fires (performance.now() ms); Infinity when none is pending. */
  let flushDue = Infinity;
  let flushing: Promise<void> = Promise.resolve();
  let loop: Promise<void> | undefined;
  let stopping = false;
  /** Ends the scheduler's sleep when it held all it may and a batch's room is free again. */
  let wake: (() => void) | undefined;
  /** While the scheduler sleeps: when it will look again (clock ms), and a way to make that sooner. */
  let sleeping: { until: number; wakeAt(at: number): void } | undefined;
  /**
   * A wake-up that came while the scheduler was awake (its look may have missed what caused it): the next sleep
   * ends by then.
   */
  let wakeWhileAwake = Infinity;
  let lastRepeatSweep = 0;
  let lastStrandedSweep = 0;
  let lastRollUp = 0;
  let lastBillingSweep = 0;
  let lastPlanLimits = 0;
  const vacuumEveryMs = options.vacuumEveryMs ?? VACUUM_EVERY_SECONDS * 1000;
  let lastVacuum = performance.now();
  /**
   * Monitor rows claimed since the last vacuum was asked for (the claim and the result's write each leave a dead
   * row version): an idle engine asks for none. Counted at the claim, so an engine whose last checks of a burst are
   * written while it sleeps has asked already.
   */
  let claimedSinceVacuum = 0;
  /** Where the next claim's walk starts (a slot as the database holds it); undefined: at the start. */
  let claimFrom: string | undefined;
  /** When the last claim from the start was made (performance.now() ms); -Infinity: the next one is. */
  let lastFullClaim = -Infinity;

  /**
   * Claims up to `limit` slots due within `aheadMs` and starts each on its slot. The lease covers the wait too:
   * no other worker checks the slot before its check here could have been written. `fromStart`: the walk starts at
   * the due index's start whatever came before.
   */
  async function claim(limit: number, aheadMs: number, fromStart = false): Promise<number> {
    const now = clock.now();
    const leaseUntil = addMs(now, aheadMs + (options.claimLeaseMs ?? CLAIM_LEASE_MS));
    const full = fromStart || performance.now() - lastFullClaim >= FULL_CLAIM_EVERY_MS;
    if (full) lastFullClaim = performance.now();
    const claimed = await store.checks.claimDue({
      now,
      dueBy: addMs(now, aheadMs),
      leaseUntil,
      limit,
      services,
      from: full ? undefined : claimFrom,
    });
    claimedSinceVacuum += claimed.length;
    if (claimed.length === 0) return 0;
    // Every slot before the latest claimed is held, was claimed here, or is found by a claim from the start.
    const latest = claimed.reduce((a, b) => (b.slotAt > a.slotAt ? b : a));
    claimFrom = latest.slotText;
    // A slot already due when claimed is someone's (a new monitor, Check now) or late: it starts at once and its
    // result goes out soon; the others start on their tick.
    const slots = claimed.map((monitor) => ({ monitor, leaseUntil, prompt: monitor.slotAt <= now }));
    // The claim's rows come in no order (an UPDATE's RETURNING), and a wake-up's slot may be due before those held.
    waiting = waiting.concat(slots).sort((a, b) => a.monitor.slotAt.getTime() - b.monitor.slotAt.getTime());
    if (slots.some((slot) => slot.prompt)) startDue();
    else waitForTick();
    return claimed.length;
  }

  /** Starts the waiting checks whose slot has come, while places are free; then waits for the next one's time. */
  function startDue(): void {
    const now = clock.now().getTime();
    let started = 0;
    while (started < waiting.length && running.size < options.concurrency) {
      const slot = waiting[started]!;
      if (slot.monitor.slotAt.getTime() > now) break;
      started += 1;
      const task = runCheck(slot).finally(() => {
        running.delete(task);
        // A place came free: the checks that came due while all were taken start now; the rest keep their tick.
        if (running.size + 1 >= options.concurrency) startDue();
        if (wake && room() >= claimLimit) wake();
      });
      running.add(task);
    }
    if (started > 0) waiting = waiting.slice(started);
    waitForTick();
  }

  /** Starts the waiting checks at the tick after the first one's slot; while all places are taken, when one frees. */
  function waitForTick(): void {
    clearTimeout(waitTimer);
    waitTimer = undefined;
    const next = waiting[0];
    if (!next || running.size >= options.concurrency) return;
    const every = light ? START_TICK_MS : BUSY_START_TICK_MS;
    const tick = Math.ceil(next.monitor.slotAt.getTime() / every) * every;
    waitTimer = setTimeout(startDue, Math.max(1, tick - clock.now().getTime()));
  }

  /** How many more slots this worker may claim. */
  function room(): number {
    return running.size < options.concurrency ? holdLimit - running.size - waiting.length : 0;
  }

  async function runCheck({ monitor, leaseUntil, prompt }: Claimed): Promise<void> {
    const checkedAt = clock.now();
    const checker = checkers[monitor.service as keyof CheckerMap]!;
    // None for a checker that gives up in time by itself (Checker.timeoutMs). Otherwise a timer cleared when the
    // check is done, not AbortSignal.timeout's, which fires (building an abort error) long after every check.
    const deadline =
      (checker.timeoutMs?.(monitor.conditions) ?? Infinity) <= CHECK_DEADLINE_MS
        ? null
        : new AbortController();
    const timer = deadline && setTimeout(() => deadline.abort(), CHECK_DEADLINE_MS);
    try {
      const outcome = await checker.check({
        target: monitor.target,
        conditions: monitor.conditions,
        now: checkedAt,
        slotAt: monitor.slotAt,
        signal: deadline?.signal,
      });
      finished.push({ monitor, leaseUntil, checkedAt, outcome, error: null });
    } catch (error) {
      // A checker bug or an unreadable monitor row: recorded as a failed check, never as an incident.
      log.error({ err: error, monitorId: monitor.id }, 'check crashed');
      finished.push({
        monitor,
        leaseUntil,
        checkedAt,
        outcome: null,
        error: `Vigil could not run this check: ${(error as Error).message}`,
      });
    } finally {
      if (timer) clearTimeout(timer);
    }
    if (finished.length >= options.batchSize) void flush();
    else
      flushWithin(
        prompt || mayChangeState(finished[finished.length - 1]!) ? FLUSH_DELAY_MS : QUIET_FLUSH_DELAY_MS,
      );
  }

  /**
   * A failed or unjudged check, or any check of a monitor that was not up: its write may open or end something. A
   * monitor's first check too (no state yet): the person who just made it is looking at its page.
   */
  function mayChangeState(item: Finished): boolean {
    const { checkState } = item.monitor;
    if (item.outcome === null || Object.keys(checkState).length === 0 || statusOf(checkState) !== 'up')
      return true;
    return item.outcome.conditions.some((condition) => condition.ok !== true);
  }

  function flushWithin(ms: number): void {
    const due = performance.now() + ms;
    if (due >= flushDue) return;
    clearTimeout(flushTimer);
    flushDue = due;
    flushTimer = setTimeout(() => void flush(), ms);
  }

  /** Writes what finished so far; writes are serialised, one batch at a time. */
  function flush(): Promise<void> {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    flushDue = Infinity;
    const batch = finished;
    finished = [];
    if (batch.length === 0) return flushing;
    flushing = flushing.then(() => writeWhileHeld(batch));
    return flushing;
  }

  /**
   * Writes a batch, trying again while its slots' leases last: a database that went away for a moment (a
   * PostgreSQL restart) gets the checks already made, instead of the sites being checked again for the same slots.
   * Writing twice is harmless: `advance` takes a slot only from the row that still holds it.
   */
  async function writeWhileHeld(batch: Finished[]): Promise<void> {
    const heldUntil = Math.min(...batch.map((item) => item.leaseUntil.getTime()));
    for (let attempt = 1; ; attempt++) {
      try {
        await write(batch);
        if (attempt > 1) log.info({ count: batch.length, attempt }, 'check results written after a retry');
        return;
      } catch (error) {
        if (stopping || clock.now().getTime() + WRITE_RETRY_MS >= heldUntil) {
          // The slots stay claimed until their lease runs out, then they are checked again.
          log.error({ err: error, count: batch.length }, 'writing check results failed');
          return;
        }
        if (attempt === 1)
          log.warn({ err: error, count: batch.length }, 'writing check results failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
      }
    }
  }

  async function write(batch: Finished[]): Promise<void> {
    const now = clock.now();
    const slots = batch.map((item) => toSlot(item, now));
    // A batch that opens or ends nothing is one statement; one that does writes its incidents in the same
    // transaction.
    let deliveries: string[] = [];
    if (slots.some((slot) => slot.transitions.length > 0))
      deliveries = await store.transaction((tx) => recordWithIncidents(tx, slots, now));
    else await store.checks.record(slots.map((slot) => slot.slot));
    // The scheduler may have planned to sleep past the claim of these monitors' next checks (a lookahead before
    // them) or their first repeat alerts.
    wakeBy(
      Math.min(
        ...slots.map(({ slot, transitions }) =>
          Math.min(slot.nextCheckAt.getTime() - LOOKAHEAD_MS, ...transitions.map(firstRepeatAt)),
        ),
      ),
    );
    await handOver(deliveries);
  }

  /** Records the slots and what their transitions open or end; resolves with the deliveries to hand over. */
  async function recordWithIncidents(
    tx: Repositories,
    slots: ReturnType<typeof toSlot>[],
    now: Date,
  ): Promise<string[]> {
    const moved = await tx.checks.record(slots.map((slot) => slot.slot));
    const alertSettings = await tx.checks.alertSettingsOf(
      slots
        .filter((slot) => slot.transitions.length > 0 && moved.has(slot.slot.monitorId))
        .map((slot) => slot.slot.monitorId),
    );
    const pending: string[] = [];
    const changed: string[] = [];
    for (const { slot, item, transitions } of slots) {
      if (!moved.has(slot.monitorId)) continue;
      if (transitions.length > 0) changed.push(item.monitor.id);
      for (const transition of transitions) {
        const { monitor } = item;
        const incidentId =
          transition.kind === 'open'
            ? await tx.alerting.openIncident({
                monitorId: monitor.id,
                userId: monitor.userId,
                conditionKey: transition.conditionKey,
                summary: transition.summary,
                now: slot.checkedAt,
                nextAlertAt: transition.nextAlertAt,
              })
            : await tx.alerting.resolveIncident(monitor.id, transition.conditionKey, slot.checkedAt);
        if (!incidentId) continue;
        pending.push(
          ...(await recordEventDeliveries(tx, {
            incidentId,
            event: transition.kind === 'open' ? 'opened' : 'resolved',
            userId: monitor.userId,
            alertSettings: alertSettings.get(monitor.id),
            now: slot.checkedAt,
          })),
        );
      }
    }
    await tx.checks.requestLinkedChecks(changed, now);
    return pending;
  }

  /** Makes the scheduler look again by `at` (clock ms). */
  function wakeBy(at: number): void {
    if (!sleeping) wakeWhileAwake = Math.min(wakeWhileAwake, at);
    else if (at < sleeping.until) sleeping.wakeAt(at);
  }

  function toSlot(item: Finished, now: Date) {
    const { monitor, outcome } = item;
    const verdict = applyCheck(
      { confirmations: monitor.confirmations, repeatIntervalMinutes: monitor.repeatIntervalMinutes },
      monitor.checkState,
      outcome?.conditions ?? [],
      item.checkedAt,
    );
    const failed = outcome?.conditions.filter((condition) => condition.ok === false) ?? [];
    const unjudged = outcome?.conditions.find((condition) => condition.ok === null);
    const ok = item.error === null && failed.length === 0;
    const slot: CheckedSlot = {
      monitorId: monitor.id,
      slotText: monitor.slotText,
      nextCheckAt: nextCheckOf(monitor, item, verdict.status, now),
      checkedAt: item.checkedAt,
      ok,
      responseMs: outcome?.responseMs ?? null,
      statusCode: outcome?.statusCode ?? null,
      failedConditions: failed.map((condition) => condition.key),
      // A condition that could not be judged (the provider kept Vigil waiting) is said, never passed silently.
      error: item.error ?? failed[0]?.summary ?? (unjudged ? `Not checked: ${unjudged.summary}` : null),
      // A crashed check keeps the previous incident state: the site was not judged.
      status: item.error === null ? verdict.status : statusOf(monitor.checkState),
      checkState: item.error === null ? verdict.state : monitor.checkState,
    };
    return { slot, item, transitions: item.error === null ? verdict.transitions : [] };
  }

  /** The next slot: on the monitor's own grid, or on its group's (one shop's monitors come due together). */
  function slotAfter(monitor: ClaimedMonitor, now: Date): Date {
    const group = checkers[monitor.service as keyof CheckerMap]?.slotGroup?.(monitor.target);
    if (!group) return nextSlot(monitor.slotAt, monitor.intervalSeconds, now);
    const offset = groupOffsetMs(group, monitor.intervalSeconds);
    return nextAlignedSlot(monitor.slotAt, monitor.intervalSeconds, now, offset);
  }

  /**
   * A failure being confirmed is checked again after the retry interval (never later than the next slot), so
   * an outage alerts about a minute after it starts instead of `confirmations` whole intervals later. The
   * schedule then continues from that re-check.
   */
  function nextCheckOf(
    monitor: ClaimedMonitor,
    item: Finished,
    status: CheckVerdict['status'],
    now: Date,
  ): Date {
    const next = slotAfter(monitor, now);
    if (item.error !== null || status !== 'confirming') return next;
    const retry = addMs(item.checkedAt, CONFIRM_RETRY_SECONDS * 1000);
    return retry < next ? retry : next;
  }

  /** Hands deliveries to the job engine; one that fails here is picked up by `requeueStranded`. */
  const handOver = (deliveryIds: string[]) => queueDeliveries({ queue, store, clock, log }, deliveryIds);

  async function sweepRepeats(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = clock.now();
      const { count, deliveries } = await store.transaction(async (tx) => {
        const due = await tx.alerting.lockDueRepeats(now, REPEAT_BATCH);
        const pending: string[] = [];
        for (const incident of due) {
          const repeat = repeatDue(incident, incident, now);
          if (!repeat) {
            await tx.alerting.stopRepeats(incident.id);
            continue;
          }
          await tx.alerting.recordRepeat(incident.id, repeat.alertCount, repeat.nextAlertAt, now);
          pending.push(
            ...(await recordEventDeliveries(tx, {
              incidentId: incident.id,
              event: repeat.event,
              userId: incident.userId,
              alertSettings: incident.alertSettings,
              now,
            })),
          );
        }
        return { count: due.length, deliveries: pending };
      });
      await handOver(deliveries);
      total += count;
      if (count < REPEAT_BATCH) return total;
    }
  }

  async function requeueStranded(): Promise<number> {
    const ids = await store.alerting.unqueued(addMs(clock.now(), -STRANDED_DELIVERY_MS), 500);
    await handOver(ids);
    return ids.length;
  }

  /** Repeat alerts every second, stranded deliveries and the roll-up job now and then. */
  async function housekeeping(): Promise<void> {
    const at = performance.now();
    if (at - lastRepeatSweep >= REPEAT_SWEEP_MS) {
      lastRepeatSweep = at;
      await sweepRepeats();
    }
    if (at - lastStrandedSweep >= STRANDED_SWEEP_MS) {
      lastStrandedSweep = at;
      await requeueStranded();
    }
    if (lastRollUp === 0 || at - lastRollUp >= ROLL_UP_EVERY_SECONDS * 1000) {
      lastRollUp = at;
      await queue.send(rollUpResultsJob, {}, { oncePerSeconds: ROLL_UP_EVERY_SECONDS });
    }
    if (lastBillingSweep === 0 || at - lastBillingSweep >= BILLING_SWEEP_SECONDS * 1000) {
      lastBillingSweep = at;
      await queue.send(sweepBillingJob, {}, { oncePerSeconds: BILLING_SWEEP_SECONDS });
    }
    if (lastPlanLimits === 0 || at - lastPlanLimits >= PLAN_LIMITS_EVERY_SECONDS * 1000) {
      lastPlanLimits = at;
      await queue.send(applyPlanLimitsJob, {}, { oncePerSeconds: PLAN_LIMITS_EVERY_SECONDS });
    }
    if (at - lastVacuum >= vacuumEveryMs) {
      lastVacuum = at;
      if (claimedSinceVacuum > 0)
        await queue.send(vacuumMonitorsJob, {}, { oncePerSeconds: VACUUM_EVERY_SECONDS });
      claimedSinceVacuum = 0;
    }
  }

  /**
   * How long to sleep after a claim that took every slot within the lookahead: CLAIM_EVERY_MS when it took
   * some (more keep coming), else until the lookahead reaches the next due slot or repeat alert, at least
   * POLL_MS (a due slot another worker holds), at most SAFETY_POLL_MS.
   */
  async function sleepMs(claimed: number): Promise<number> {
    if (claimed > 0) return CLAIM_EVERY_MS;
    const now = clock.now();
    const due = await store.checks.nextDueAt(now, services);
    if (!due) return SAFETY_POLL_MS;
    return Math.min(Math.max(due.getTime() - LOOKAHEAD_MS - now.getTime(), POLL_MS), SAFETY_POLL_MS);
  }

  async function run(): Promise<void> {
    const unlisten = await options.wakeups
      ?.listen(MONITORS_CHANNEL, () => {
        lastFullClaim = -Infinity;
        wakeBy(clock.now().getTime());
      })
      .catch((error: unknown) => {
        log.warn({ err: error }, 'listening for monitor changes failed; the scheduler polls');
        return undefined;
      });
    while (!stopping) {
      let full = false;
      /** The claim took all this worker may hold: more may be due within the lookahead. */
      let capped = false;
      let delay = POLL_MS;
      wakeWhileAwake = Infinity;
      try {
        const limit = Math.min(room(), claimLimit);
        const claimed = limit > 0 ? await claim(limit, LOOKAHEAD_MS) : 0;
        capped = claimed === limit;
        full = capped && limit === claimLimit;
        if (light === capped) {
          light = !capped;
          waitForTick();
        }
        await housekeeping();
        if (!capped) delay = await sleepMs(claimed);
      } catch (error) {
        log.error({ err: error }, 'check scheduler error');
      }
      if (full && !stopping) continue;
      // Sleep until then, until a change is notified, or, when it held all it may, until a batch's room is free.
      delay = Math.min(delay, Math.max(0, wakeWhileAwake - clock.now().getTime()));
      await new Promise<void>((resolve) => {
        let timer = setTimeout(done, delay);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          sleeping = undefined;
          resolve();
        }
        sleeping = {
          until: clock.now().getTime() + delay,
          wakeAt(at) {
            clearTimeout(timer);
            this.until = at;
            timer = setTimeout(done, Math.max(0, at - clock.now().getTime()));
          },
        };
        wake = capped || stopping ? done : undefined;
        if (stopping) done();
      });
    }
    unlisten?.();
  }

  return {
    start() {
      loop ??= run();
    },
    async stop() {
      stopping = true;
      wake?.();
      sleeping?.wakeAt(0);
      await loop;
      // Slots not yet started go back at once, for another worker to take.
      clearTimeout(waitTimer);
      const unstarted = waiting.map(({ monitor }) => monitor.id);
      waiting = [];
      await store.checks.release(unstarted).catch((error: unknown) => {
        log.warn(
          { err: error, count: unstarted.length },
          'giving back claimed slots failed; their leases end',
        );
      });
      await Promise.allSettled([...running]);
      await flush();
    },
    async runDue() {
      let total = 0;
      for (;;) {
        const claimed = await claim(claimLimit, 0, true);
        total += claimed;
        await Promise.allSettled([...running]);
        await flush();
        if (claimed < claimLimit) return total;
      }
    },
    sweepRepeats,
    requeueStranded,
  };
}
