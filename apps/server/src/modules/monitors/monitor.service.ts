import {
  type Connection,
  isAlertSettingsValid,
  type Monitor,
  type MonitorChecks,
  type MonitorInput,
  type MonitorListItem,
  type monitorStatsResponse,
  type MonitorStatus,
  type ServiceId,
} from '@vigil/contracts';
import type { z } from 'zod';
import type { Repositories, Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { type Clock, DAY_MS, HOUR_MS } from '../../lib/clock.ts';
import { normaliseAddress } from '../contacts/contact.service.ts';
import { PHONE_CONTACT } from '../../engine/alert-events.ts';
import { effectivePlan, FREE_PLAN, NO_PLAN, PLAN_CATALOGUE } from '../plans/plan-catalogue.ts';
import { assertCanRun, everyInWords } from '../billing/plan-limits.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limit.service.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import type { UserRow } from '../users/user.repository.ts';
import type { TargetPreparer } from './target-preparer.ts';
import { toConnection } from '../connections/connection.service.ts';
import type { Tally } from './check-history.repository.ts';
import type {
  ListedMonitorRow,
  ListedMonitorView,
  MonitorRow,
  MonitorSettings,
  MonitorView,
} from './monitor.repository.ts';
import {
  ALERT_LANGUAGES,
  CONFIRMATIONS,
  INTERVAL_SECONDS,
  isAlertLanguage,
  REPEAT_INTERVAL_MINUTES,
  SERVICE_CATALOGUE,
} from './service-catalogue.ts';
import { type HourlyTally, lastDayOf } from './uptime-tally.ts';

export type MonitorStats = z.infer<typeof monitorStatsResponse>['data'];
type StatsRange = MonitorStats['range'];

interface AlertSettingsColumn {
  callSettings: Monitor['callSettings'];
  smsSettings: Monitor['smsSettings'];
  emailSettings: Monitor['emailSettings'];
}

export const MONITOR_NOT_FOUND = 'That monitor does not exist.';
const notFound = () => new AppError('NOT_FOUND', MONITOR_NOT_FOUND);
const accountGone = () => new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');

const RANGE_MS: Record<StatsRange, number> = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };
const FIVE_MINUTES_S = 300;

function invalid(path: string, message: string): AppError {
  return new AppError('INVALID', message, { details: [{ path, message }] });
}

/** Percentage of checks that passed, two decimals; null before any check. */
export function uptimeOf(tally: Tally | undefined): number | null {
  if (!tally || tally.checks === 0) return null;
  return Math.round(((tally.checks - tally.failures) / tally.checks) * 10_000) / 100;
}

/**
 * Incident periods as downtime: overlapping ones (two conditions failing at once) merged, each starting no
 * earlier than `from`. Sorted by opening.
 */
export function downtimeOf(
  periods: { openedAt: Date; resolvedAt: Date | null }[],
  from: Date,
): MonitorStats['downtime'] {
  const merged: { from: number; to: number | null }[] = [];
  for (const period of periods) {
    const start = Math.max(period.openedAt.getTime(), from.getTime());
    const end = period.resolvedAt?.getTime() ?? null;
    const last = merged.at(-1);
    if (last && (last.to === null || start <= last.to)) {
      last.to = last.to === null || end === null ? null : Math.max(last.to, end);
    } else {
      merged.push({ from: start, to: end });
    }
  }
  return merged.map((period) => ({
    from: new Date(period.from).toISOString(),
    to: period.to === null ? null : new Date(period.to).toISOString(),
  }));
}

/** Services whose monitor an ads monitor may link to: an outage there means the ads cannot sell. */
export const SHOP_SERVICES: readonly string[] = ['website', 'shopify'];

function toSettings(
  input: MonitorInput,
  prepared: { target: unknown; connectionId: string | null; linkedMonitorId: string | null },
): MonitorSettings {
  const alertSettings: AlertSettingsColumn = {
    callSettings: input.callSettings,
    smsSettings: input.smsSettings,
    // Stored as verified (lower case), so the engine alerts exactly the address that was proved.
    emailSettings: { ...input.emailSettings, email: normaliseAddress(input.emailSettings.email) },
  };
  return {
    name: input.name,
    service: input.service,
    target: prepared.target,
    connectionId: prepared.connectionId,
    linkedMonitorId: prepared.linkedMonitorId,
    conditions: input.conditions,
    intervalSeconds: input.intervalSeconds,
    repeatIntervalMinutes: input.repeatIntervalMinutes,
    confirmations: input.confirmations,
    alertSettings,
    languageCode: input.languageCode,
  };
}

const tallyOf = (row: ListedMonitorRow): HourlyTally => ({
  hour: row.tallyHour,
  checks: row.tallyChecks,
  failures: row.tallyFailures,
});

/**
 * A monitor as a list answers it; `now` places the row's hourly tally in the last 24 hours, and `connections`
 * holds the connections of the monitors that watch through one (by id).
 */
export function toListItem(
  { row, openIncidents }: ListedMonitorView,
  now: Date,
  connections: ReadonlyMap<string, Connection> = new Map(),
): MonitorListItem {
  // One object literal, its fields in the answer's order: spreading shared fields into a per-service object cost
  // ~11 µs a monitor (V8 copies a spread this size slowly), most of a list page's mapping.
  const item = {
    monitorId: row.id,
    name: row.name,
    intervalSeconds: row.intervalSeconds,
    status: row.paused ? 'paused' : (row.status as MonitorStatus),
    paused: row.paused,
    pauseReason: row.pauseReason,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastResponseMs: row.lastResponseMs,
    lastError: row.lastError,
    uptime24h: uptimeOf(lastDayOf(tallyOf(row), now)),
    openIncidents,
    createdAt: row.createdAt.toISOString(),
    service: row.service,
    // Per service, as its own contract types them.
    target: row.target,
  } as MonitorListItem;
  if (item.service !== 'website') {
    // A connected service's monitor also names the connection it watches through.
    item.connection = (row.connectionId && connections.get(row.connectionId)) || null;
  }
  return item;
}

/** The monitor as its page answers it: what a list shows, and its settings. */
export function toMonitor(
  view: MonitorView,
  now: Date,
  connections?: ReadonlyMap<string, Connection>,
): Monitor {
  const { row } = view;
  const alertSettings = row.alertSettings as AlertSettingsColumn;
  return {
    ...toListItem(view, now, connections),
    repeatIntervalMinutes: row.repeatIntervalMinutes,
    confirmations: row.confirmations,
    languageCode: row.languageCode,
    callSettings: alertSettings.callSettings,
    smsSettings: alertSettings.smsSettings,
    emailSettings: alertSettings.emailSettings,
    conditions: row.conditions,
  } as Monitor;
}

export function createMonitorService(deps: {
  store: Store;
  clock: Clock;
  limiter: RateLimiter;
  /** False when this server has no SMS/call provider: the phone channels cannot be ticked. */
  phoneConfigured: boolean;
  /**
   * The connected services this server has the provider's app for (Shopify, Google Ads, Meta); a service
   * without one cannot be chosen.
   */
  targets: Partial<Record<ServiceId, TargetPreparer<never>>>;
}) {
  const { store, clock, phoneConfigured } = deps;

  /** The monitor an ads monitor links to: one of the person's website or Shopify monitors, not itself. */
  async function linkedMonitor(userId: string, input: MonitorInput, existing?: MonitorRow) {
    const linkedId = 'linkedMonitorId' in input.target ? input.target.linkedMonitorId : null;
    if (!linkedId) return null;
    const linked = await store.monitors.findOwned(userId, linkedId);
    if (!linked || !SHOP_SERVICES.includes(linked.service) || linked.id === existing?.id) {
      throw invalid(
        'target.linkedMonitorId',
        'Link one of your website or Shopify monitors, or none: that monitor does not exist.',
      );
    }
    return linked.id;
  }

  /**
   * The stored target: as given for a website; for a connected service, what its provider says of the chosen
   * account and items now.
   */
  async function prepare(userId: string, input: MonitorInput, existing?: MonitorRow) {
    if (input.service === 'website') {
      return { target: input.target, connectionId: null, linkedMonitorId: null };
    }
    const preparer = deps.targets[input.service] as TargetPreparer | undefined;
    if (!preparer) {
      const name = SERVICE_CATALOGUE.find((entry) => entry.service === input.service)?.name;
      throw invalid('service', `${name ?? input.service} monitors are not set up on this Vigil server.`);
    }
    const linkedMonitorId = await linkedMonitor(userId, input, existing);
    const previous = existing?.service === input.service ? existing.target : undefined;
    const prepared = await preparer.prepareTarget(userId, input.target, previous);
    return { ...prepared, linkedMonitorId };
  }

  /** The connections the shown monitors watch through, with their status, by id. */
  async function connectionsOf(userId: string, rows: { connectionId: string | null }[]) {
    if (!rows.some((row) => row.connectionId)) return new Map<string, Connection>();
    const owned = await store.connections.listOwned(userId);
    return new Map(owned.map(({ row, monitors }) => [row.id, toConnection(row, monitors)]));
  }

  async function userOf(session: AuthSession): Promise<UserRow> {
    const user = await store.users.findById(session.userId);
    if (!user) throw accountGone();
    return user;
  }

  /** What the contract cannot know: the catalogue's bounds, the plan, the channels open today, verification. */
  async function checkSettings(user: UserRow, input: MonitorInput): Promise<void> {
    // The contract applies the spec's rule already; checked again here because this is the rule that matters.
    if (!isAlertSettingsValid(input)) {
      throw invalid('emailSettings', 'Check the alert settings: each ticked channel needs its contact.');
    }
    if (!isAlertLanguage(input.languageCode)) {
      throw invalid('languageCode', 'Choose one of the alert languages offered.');
    }
    if (input.intervalSeconds < INTERVAL_SECONDS.min || input.intervalSeconds > INTERVAL_SECONDS.max) {
      throw invalid('intervalSeconds', 'Choose a check interval between 30 seconds and 24 hours.');
    }
    const inForce = effectivePlan(user, clock.now());
    // With no plan running (a Free period ended) what is saved keeps to Free's bounds, and says Free.
    const plan = inForce === NO_PLAN ? FREE_PLAN : inForce;
    if (input.intervalSeconds < plan.minIntervalSeconds) {
      throw invalid(
        'intervalSeconds',
        `The ${plan.name} plan checks at most every ${everyInWords(plan.minIntervalSeconds)}: choose ${plan.minIntervalSeconds} seconds or more, or a bigger plan.`,
      );
    }
    for (const [field, channel] of [
      ['callSettings', 'call'],
      ['smsSettings', 'sms'],
    ] as const) {
      const group = input[field];
      if (!group.checked) continue;
      const noun = channel === 'call' ? 'Phone call alerts' : 'SMS alerts';
      if (!phoneConfigured) {
        throw invalid(field, `${noun} are not set up on this Vigil server: untick them and use email.`);
      }
      if (!plan.channels.includes(channel)) {
        const plans = PLAN_CATALOGUE.filter((p) => p.channels.includes(channel)).map((p) => p.name);
        throw invalid(
          field,
          `The ${plan.name} plan has no ${channel === 'call' ? 'phone calls' : 'SMS'}: choose ${plans.join(', ')}, or untick it.`,
        );
      }
      if (!group.isAgree) throw invalid(`${field}.isAgree`, `${noun} need your consent: tick the box.`);
      if (
        !(await store.contacts.isVerified({ userId: user.id, channel: PHONE_CONTACT, address: group.phone }))
      ) {
        throw invalid(
          `${field}.phone`,
          `Verify ${group.phone} first: send a code by SMS or call and enter it.`,
        );
      }
    }
    if (input.emailSettings.checked) {
      const address = normaliseAddress(input.emailSettings.email);
      if (!(await store.contacts.isVerified({ userId: user.id, channel: 'email', address }))) {
        throw invalid('emailSettings.email', `Verify ${address} first: send a code and enter it.`);
      }
    }
  }

  /** A monitor just written (created, changed, checked on demand), with its unresolved incidents counted. */
  async function presentOne(row: MonitorRow): Promise<Monitor> {
    const incidents = await store.incidents.unresolvedCounts([row.id]);
    const connections = await connectionsOf(row.userId, [row]);
    return toMonitor({ row, openIncidents: incidents.get(row.id) ?? 0 }, clock.now(), connections);
  }

  /**
   * Pause, start and delete act on all the ids or none: an id the caller does not own (or a repeated one that
   * is gone) makes the whole request 404, before anything changes.
   */
  async function forAllOwned(
    session: AuthSession,
    ids: string[],
    work: (tx: Repositories, distinct: string[]) => Promise<number>,
  ): Promise<number> {
    const distinct = [...new Set(ids)];
    return store.transaction(async (tx) => {
      if ((await tx.monitors.lockOwned(session.userId, distinct)) !== distinct.length) throw notFound();
      return work(tx, distinct);
    });
  }

  return {
    catalogue: () => ({
      list: SERVICE_CATALOGUE.map((entry) =>
        entry.service !== 'website' && !deps.targets[entry.service]
          ? {
              ...entry,
              available: false,
              unavailableReason: `${entry.name} is not set up on this Vigil server.`,
            }
          : entry,
      ),
      languages: [...ALERT_LANGUAGES],
      intervalSeconds: { ...INTERVAL_SECONDS },
      repeatIntervalMinutes: { ...REPEAT_INTERVAL_MINUTES },
      confirmations: { ...CONFIRMATIONS },
    }),

    async create(session: AuthSession, input: MonitorInput): Promise<Monitor> {
      const user = await userOf(session);
      // Said first, before the form's details, and before a provider is asked about the account.
      await assertCanRun(store, user, clock.now(), { more: 1, watching: [] });
      await checkSettings(user, input);
      const prepared = await prepare(user.id, input);
      const row = await store.transaction(async (tx) => {
        // Under the lock on the person's row, so two creates cannot both take the last place. Running monitors
        // are counted: paused ones (by the person or by the plan) are kept but do not use the plan.
        const locked = await tx.planLimits.lockUser(user.id);
        if (!locked) throw accountGone();
        await assertCanRun(tx, locked, clock.now(), {
          more: 1,
          watching: [{ name: input.name, connectionId: prepared.connectionId }],
        });
        return tx.monitors.insert(user.id, toSettings(input, prepared), clock.now());
      });
      return presentOne(row);
    },

    async update(session: AuthSession, body: MonitorInput & { monitorId: string }): Promise<Monitor> {
      const existing = await store.monitors.findOwned(session.userId, body.monitorId);
      if (!existing) throw notFound();
      await checkSettings(await userOf(session), body);
      const prepared = await prepare(session.userId, body, existing);
      if (!existing.paused && prepared.connectionId && prepared.connectionId !== existing.connectionId) {
        // A running monitor moved to another account: that account must be one the plan covers.
        await assertCanRun(store, await userOf(session), clock.now(), {
          more: 0,
          watching: [{ name: body.name, connectionId: prepared.connectionId }],
        });
      }
      const row = await store.monitors.updateSettings(
        session.userId,
        body.monitorId,
        toSettings(body, prepared),
        clock.now(),
      );
      if (!row) throw notFound();
      return presentOne(row);
    },

    async list(session: AuthSession, page: number, pageSize: number) {
      const { views, total } = await store.monitors.viewPage(session.userId, pageSize, (page - 1) * pageSize);
      const now = clock.now();
      const connections = await connectionsOf(
        session.userId,
        views.map((view) => view.row),
      );
      return { list: views.map((view) => toListItem(view, now, connections)), total, page, pageSize };
    },

    async get(session: AuthSession, monitorId: string): Promise<Monitor> {
      const view = await store.monitors.viewOwned(session.userId, monitorId);
      if (!view) throw notFound();
      return toMonitor(view, clock.now(), await connectionsOf(session.userId, [view.row]));
    },

    remove: (session: AuthSession, ids: string[]) =>
      forAllOwned(session, ids, (tx, distinct) => tx.monitors.deleteOwned(session.userId, distinct)),

    /** Checks a monitor at once, between its scheduled checks (a few times per 10 minutes). */
    async checkNow(session: AuthSession, monitorId: string): Promise<Monitor> {
      const row = await store.monitors.findOwned(session.userId, monitorId);
      if (!row) throw notFound();
      if (row.paused) {
        throw new AppError('CONFLICT', 'This monitor is paused. Start it to check it again.');
      }
      await deps.limiter.consume(
        [LIMITS.checkNowByMonitor(monitorId)],
        (retryIn) => `This monitor was just checked several times on demand. Check it again ${retryIn}.`,
      );
      await store.monitors.checkNow(session.userId, monitorId, clock.now());
      return presentOne(row);
    },

    summary: (session: AuthSession) => store.monitors.summary(session.userId),

    pause: (session: AuthSession, ids: string[]) =>
      forAllOwned(session, ids, (tx, distinct) =>
        tx.monitors.setPaused(session.userId, distinct, true, clock.now()),
      ),

    /**
     * Starts paused monitors while the plan in force has room for them (running monitors counted) and covers
     * their accounts; otherwise nothing starts and the answer says why.
     */
    async start(session: AuthSession, ids: string[]): Promise<number> {
      const distinct = [...new Set(ids)];
      return store.transaction(async (tx) => {
        // The person's row first, as the plan-limits job takes it, then the monitors.
        const user = await tx.planLimits.lockUser(session.userId);
        if (!user) throw accountGone();
        if ((await tx.monitors.lockOwned(session.userId, distinct)) !== distinct.length) throw notFound();
        const wanted = new Set(distinct);
        const starting = (await tx.planLimits.monitorsOf(session.userId)).filter(
          (monitor) => wanted.has(monitor.id) && monitor.paused,
        );
        if (starting.length > 0) {
          await assertCanRun(tx, user, clock.now(), { more: starting.length, watching: starting });
        }
        return tx.monitors.setPaused(session.userId, distinct, false, clock.now());
      });
    },

    /**
     * Uptime over 24 h (the row's hourly tally, as the list shows it), 7 d and 30 d, and the chosen range's
     * series: 5-minute buckets of raw results for 24 h, hourly buckets for 7 d and 30 d. Every bucket of the
     * range is listed, empty ones with 0 checks. With it, the monitor's downtime (its incidents) in the range.
     */
    async stats(session: AuthSession, monitorId: string, range: StatsRange): Promise<MonitorStats> {
      const row = await store.monitors.findOwned(session.userId, monitorId);
      if (!row) throw notFound();
      const now = clock.now();
      const since = (r: StatsRange) => new Date(now.getTime() - RANGE_MS[r]);
      const [week, month] = await Promise.all(
        (['7d', '30d'] as const).map((r) => store.checkHistory.tallies([monitorId], since(r))),
      );
      const bucketMs = range === '24h' ? FIVE_MINUTES_S * 1000 : HOUR_MS;
      const first = Math.floor(since(range).getTime() / bucketMs) * bucketMs;
      const buckets =
        range === '24h'
          ? await store.checkHistory.rawBuckets(monitorId, new Date(first), FIVE_MINUTES_S)
          : await store.checkHistory.hourlyBuckets(monitorId, new Date(first));
      const periods = await store.incidents.periodsOf(session.userId, monitorId, new Date(first), now);
      const byStart = new Map(buckets.map((bucket) => [bucket.at, bucket]));
      const series: MonitorStats['series'] = [];
      for (let at = first; at <= now.getTime(); at += bucketMs) {
        const bucket = byStart.get(at);
        series.push({
          at: new Date(at).toISOString(),
          checks: bucket?.checks ?? 0,
          failures: bucket?.failures ?? 0,
          p50Ms: bucket?.p50Ms ?? null,
          p95Ms: bucket?.p95Ms ?? null,
        });
      }
      return {
        range,
        uptime: {
          '24h': uptimeOf(lastDayOf(tallyOf(row), now)),
          '7d': uptimeOf(week!.get(monitorId)),
          '30d': uptimeOf(month!.get(monitorId)),
        },
        series,
        downtime: downtimeOf(periods, new Date(first)),
      };
    },

    /** The monitor's last `limit` checks one by one, oldest first, for its status bar. */
    async recentChecks(session: AuthSession, monitorId: string, limit: number): Promise<MonitorChecks> {
      const row = await store.monitors.findOwned(session.userId, monitorId);
      if (!row) throw notFound();
      const checks = await store.checkHistory.recent(monitorId, limit);
      return {
        checks: checks.map((check) => ({
          at: check.checkedAt.toISOString(),
          ok: check.ok,
          responseMs: check.responseMs,
          statusCode: check.statusCode,
          error: check.error,
        })),
      };
    },
  };
}
export type MonitorService = ReturnType<typeof createMonitorService>;
