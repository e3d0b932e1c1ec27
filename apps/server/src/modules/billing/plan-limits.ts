import type { Monitor, Plan } from '@vigil/contracts';
import type { Repositories } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { unixSeconds } from '../../lib/clock.ts';
import { normaliseAddress } from '../contacts/contact.service.ts';
import { effectivePlan, findPlan, FREE_PLAN, NO_PLAN, planInForceUntil } from '../plans/plan-catalogue.ts';
import type { UserRow } from '../users/user.repository.ts';
import { formatDay } from './billing-format.ts';
import type { CountedAccountRow, LimitedMonitorRow } from './plan-limits.repository.ts';

/** A Free period lasts this long, after a paid plan as after choosing Free. */
export const FREE_PERIOD_SECONDS = FREE_PLAN.periodDays * 86_400;

/** Where notices send people to choose a plan; the notice job makes `/app/…` paths absolute. */
export const PRICING_PATH = '/app/pricing';

export interface MonitorRef {
  monitorId: string;
  name: string;
}

/** What bringing a person's monitors within their plan changed. */
export interface PlanLimitsChange {
  userId: string;
  /** The plan whose limits apply now; 'None' when no plan runs (a Free period ended). */
  plan: string;
  /** The plan whose limits applied before; null when none ever did. */
  previousPlan: string | null;
  /** When a paid plan had ended: the end (Unix seconds) of the Free period written down after it. */
  freePeriodUntil: number | null;
  paused: MonitorRef[];
  resumed: MonitorRef[];
  /** Monitors whose call or SMS alerts were unticked (the plan lacks them) and email ticked instead. */
  channelsDropped: MonitorRef[];
  /** Monitors whose interval was raised to the plan's shortest. */
  intervalsRaised: MonitorRef[];
  /** The "your monitors changed" notice written now; null when nothing was paused, dropped or raised. */
  noticeId: string | null;
}

interface AlertSettingsColumn {
  callSettings: Monitor['callSettings'];
  smsSettings: Monitor['smsSettings'];
  emailSettings: Monitor['emailSettings'];
}

/** "5 minutes", "minute", "30 seconds": how often a plan may check, in words. */
export function everyInWords(seconds: number): string {
  if (seconds === 60) return 'minute';
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A day given in Unix seconds, as emails and messages write it. */
const dayOf = (seconds: number) => formatDay(new Date(seconds * 1000));

/**
 * The accounts a plan covers: the person's counted accounts (any connection not disconnected), oldest first,
 * up to the plan's limit. A monitor fits when it watches through no counted account or a covered one.
 */
export function accountCoverage(plan: Plan, accounts: Pick<CountedAccountRow, 'id'>[]) {
  const counted = new Set(accounts.map((account) => account.id));
  const covered = new Set(accounts.slice(0, plan.maxAccounts).map((account) => account.id));
  return {
    covered,
    fits: (connectionId: string | null) =>
      connectionId === null || !counted.has(connectionId) || covered.has(connectionId),
  };
}

/**
 * The monitors a plan runs, oldest first: those running now that fit its accounts, up to its count, then
 * monitors Vigil paused (never those the person paused) that fit, while there is room.
 */
export function monitorsToRun<M extends Pick<LimitedMonitorRow, 'paused' | 'pauseReason' | 'connectionId'>>(
  plan: Plan,
  accounts: Pick<CountedAccountRow, 'id'>[],
  monitors: M[],
): { keep: M[]; pause: M[]; resume: M[] } {
  const { fits } = accountCoverage(plan, accounts);
  const running = monitors.filter((monitor) => !monitor.paused);
  const keep = running.filter((monitor) => fits(monitor.connectionId)).slice(0, plan.maxMonitors);
  const kept = new Set(keep);
  const pause = running.filter((monitor) => !kept.has(monitor));
  const resume: M[] = [];
  let room = plan.maxMonitors - keep.length;
  for (const monitor of monitors) {
    if (room <= 0) break;
    if (monitor.paused && monitor.pauseReason !== null && fits(monitor.connectionId)) {
      resume.push(monitor);
      room -= 1;
    }
  }
  return { keep, pause, resume };
}

/** "Your Free period ended on 8 Dec 2026": when the person's last plan ran out. */
function endedOn(user: Pick<UserRow, 'plan' | 'planExpiresAt'>): string {
  const until = planInForceUntil(user);
  return until === null ? '' : ` on ${dayOf(until)}`;
}

/**
 * Refuses, with a sentence, to run `more` monitors beyond those running, or monitors watching through an
 * account the plan in force does not cover. Counts RUNNING monitors: paused ones are kept but not counted.
 * Call it in the transaction that starts or creates them, after locking the person's row.
 */
export async function assertCanRun(
  tx: Repositories,
  user: Pick<UserRow, 'id' | 'plan' | 'planExpiresAt'>,
  now: Date,
  change: { more: number; watching: { name: string; connectionId: string | null }[] },
): Promise<void> {
  const plan = effectivePlan(user, now);
  if (plan === NO_PLAN) {
    throw new AppError(
      'INVALID',
      `Your Free period ended${endedOn(user)}: choose a plan on the pricing page to run monitors again.`,
    );
  }
  if (change.more > 0 && (await tx.planLimits.countRunning(user.id)) + change.more > plan.maxMonitors) {
    throw new AppError(
      'INVALID',
      `The ${plan.name} plan runs up to ${plural(plan.maxMonitors, 'monitor')} at once. Pause or delete one, or choose a bigger plan.`,
    );
  }
  if (!change.watching.some((monitor) => monitor.connectionId)) return;
  const accounts = await tx.planLimits.accountsOf(user.id);
  const { fits } = accountCoverage(plan, accounts);
  const beyond = change.watching.find((monitor) => !fits(monitor.connectionId));
  if (beyond) {
    const account = accounts.find((row) => row.id === beyond.connectionId)!;
    throw new AppError(
      'INVALID',
      `The ${plan.name} plan watches up to ${plural(plan.maxAccounts, 'connected account')}, and ${account.name} (watched by ${beyond.name}) is beyond it. Disconnect another account in Settings or choose a bigger plan.`,
    );
  }
}

/**
 * Refuses, with a sentence, to bind a new account beyond the plan in force: an account already counted (bound
 * again to refresh its token) always passes. Call it in the transaction that binds, after locking the person.
 */
export async function assertCanConnect(
  tx: Repositories,
  user: Pick<UserRow, 'id' | 'plan' | 'planExpiresAt'>,
  now: Date,
  account: { provider: string; account: string },
): Promise<void> {
  const plan = effectivePlan(user, now);
  const accounts = await tx.planLimits.accountsOf(user.id);
  if (accounts.some((row) => row.provider === account.provider && row.account === account.account)) return;
  if (plan === NO_PLAN) {
    throw new AppError(
      'INVALID',
      `Your Free period ended${endedOn(user)}: choose a plan on the pricing page to connect accounts again.`,
    );
  }
  if (accounts.length >= plan.maxAccounts) {
    throw new AppError(
      'INVALID',
      `The ${plan.name} plan connects up to ${plural(plan.maxAccounts, 'account')} (shops and ad accounts), and you have ${accounts.length}. Disconnect one in Settings or choose a bigger plan.`,
    );
  }
}

/** Why Vigil paused a monitor, shown on it. */
function pauseReasonOf(
  plan: Plan,
  user: Pick<UserRow, 'plan' | 'planExpiresAt'>,
  day: string,
  account: CountedAccountRow | undefined,
): string {
  if (plan === NO_PLAN) {
    return `Paused on ${day}: your Free period ended${endedOn(user)}. Choose a plan to resume it.`;
  }
  if (account) {
    return `Paused on ${day}: the ${plan.name} plan watches up to ${plural(plan.maxAccounts, 'connected account')}, and ${account.name} is beyond it. Choose a bigger plan to resume it.`;
  }
  return `Paused on ${day}: the ${plan.name} plan runs up to ${plural(plan.maxMonitors, 'monitor')}. Choose a bigger plan to resume it.`;
}

/** The first address the person proved among the monitor's, their contact email and their sign-in email. */
async function fallbackEmail(tx: Repositories, user: UserRow, current: string): Promise<string> {
  const candidates = [current, user.contactEmail ?? '', user.email]
    .map(normaliseAddress)
    .filter((address, i, all) => address !== '' && all.indexOf(address) === i);
  for (const address of candidates) {
    if (await tx.contacts.isVerified({ userId: user.id, channel: 'email', address })) return address;
  }
  return candidates[0]!;
}

/** The monitor's alert settings without the channels the plan lacks, falling back to email; null if none. */
async function limitedChannels(
  tx: Repositories,
  user: UserRow,
  plan: Plan,
  settings: AlertSettingsColumn,
): Promise<AlertSettingsColumn | null> {
  const dropCall = settings.callSettings.checked && !plan.channels.includes('call');
  const dropSms = settings.smsSettings.checked && !plan.channels.includes('sms');
  if (!dropCall && !dropSms) return null;
  const email = settings.emailSettings;
  return {
    callSettings: dropCall ? { ...settings.callSettings, checked: false } : settings.callSettings,
    smsSettings: dropSms ? { ...settings.smsSettings, checked: false } : settings.smsSettings,
    emailSettings: email.checked
      ? email
      : {
          ...email,
          checked: true,
          name: email.name || settings.smsSettings.name || settings.callSettings.name,
          email: await fallbackEmail(tx, user, email.email),
        },
  };
}

function names(refs: MonitorRef[]): string {
  const shown = refs.slice(0, 20).map((ref) => ref.name);
  return refs.length > shown.length
    ? `${shown.join(', ')} and ${refs.length - shown.length} more`
    : shown.join(', ');
}

/** The "it happened" email: what changed and how to undo it. */
function noticeOf(
  plan: Plan,
  user: UserRow,
  change: Omit<PlanLimitsChange, 'noticeId'>,
  paidPlan: string | null,
  paidEnd: number | null,
): { subject: string; text: string } {
  const limits = `up to ${plural(plan.maxMonitors, 'monitor')} and ${plural(plan.maxAccounts, 'connected account')}, checks every ${everyInWords(plan.minIntervalSeconds)}, ${plan.channels.join(' and ')} alerts`;
  const lines: string[] = [];
  let subject: string;
  if (plan === NO_PLAN) {
    subject = 'Your Vigil Free period ended: your monitors are paused';
    lines.push(`Your Free period ended${endedOn(user)}, so Vigil no longer checks your monitors.`);
  } else if (paidPlan && paidEnd !== null && change.freePeriodUntil !== null) {
    subject = `Your Vigil ${paidPlan} plan ended: your account is on Free until ${dayOf(change.freePeriodUntil)}`;
    lines.push(
      `Your ${paidPlan} plan ended on ${dayOf(paidEnd)}. Until ${dayOf(change.freePeriodUntil)} your account runs on the Free plan: ${limits}.`,
    );
  } else {
    subject = `Your Vigil monitors now run within the ${plan.name} plan`;
    lines.push(`Your account now runs on the ${plan.name} plan: ${limits}.`);
  }
  lines.push('');
  if (change.paused.length > 0) {
    lines.push(
      `Paused: ${names(change.paused)}. Nothing is deleted: their settings and history are kept, and they resume when a plan has room for them.`,
    );
  }
  if (change.channelsDropped.length > 0) {
    lines.push(
      `Call and SMS alerts turned into email alerts (the ${plan === NO_PLAN ? 'Free' : plan.name} plan has no ${plan.channels.includes('sms') ? 'calls' : 'calls or SMS'}): ${names(change.channelsDropped)}.`,
    );
  }
  if (change.intervalsRaised.length > 0) {
    lines.push(
      `Now checked every ${everyInWords(plan.minIntervalSeconds)}: ${names(change.intervalsRaised)}.`,
    );
  }
  lines.push('');
  lines.push(
    plan === NO_PLAN
      ? `Choose Free again for another ${FREE_PLAN.periodDays} days, or a paid plan, to resume them: ${PRICING_PATH}`
      : `Choose a bigger plan to resume them: ${PRICING_PATH}`,
  );
  return { subject, text: lines.join('\n') };
}

/**
 * Brings the person's monitors within the plan in force at `now`, in the caller's transaction (the person's row
 * is locked first, so plan changes, creates and this go one at a time):
 * - a paid plan whose period ended is followed by a Free period of 14 days from its end, written down here so
 *   the person and the pages see it;
 * - running monitors beyond the plan are paused, with the reason on each: those watching through an account
 *   beyond the plan first, then the newest beyond its count (the oldest keep running). Pausing is the person's
 *   pause: open incidents stay open, reminders stop and deliveries not sent yet are skipped by their job;
 * - call and SMS alerts the plan lacks are unticked and email ticked, intervals below its shortest raised;
 * - monitors Vigil paused are resumed, oldest first, while they fit (a plan grew or a new period started);
 * - `limits_plan` records the plan applied, and a notice says what was paused, dropped or raised.
 * A person who never chose a plan (`planExpiresAt` null) is left alone. Null when nothing changed.
 */
export async function bringWithinPlan(
  tx: Repositories,
  userId: string,
  now: Date,
): Promise<PlanLimitsChange | null> {
  const locked = await tx.planLimits.lockUser(userId);
  if (!locked || locked.planExpiresAt === null) return null;
  let user = locked;
  let freePeriodUntil: number | null = null;
  const chosen = findPlan(user.plan);
  const paidEnd = chosen?.checkout && user.planExpiresAt! <= unixSeconds(now) ? user.planExpiresAt : null;
  if (paidEnd !== null) {
    freePeriodUntil = paidEnd + FREE_PERIOD_SECONDS;
    await tx.planLimits.updateUser(userId, { plan: FREE_PLAN.name, planExpiresAt: freePeriodUntil }, now);
    user = { ...user, plan: FREE_PLAN.name, planExpiresAt: freePeriodUntil };
  }
  const plan = effectivePlan(user, now);
  const monitors = await tx.planLimits.monitorsOf(userId);
  const accounts = await tx.planLimits.accountsOf(userId);
  const { pause, resume } = monitorsToRun(plan, accounts, monitors);
  const { fits } = accountCoverage(plan, accounts);
  const day = formatDay(now);
  const reasonOf = (monitor: LimitedMonitorRow) =>
    pauseReasonOf(
      plan,
      user,
      day,
      fits(monitor.connectionId) ? undefined : accounts.find((row) => row.id === monitor.connectionId),
    );
  const ref = (monitor: LimitedMonitorRow): MonitorRef => ({ monitorId: monitor.id, name: monitor.name });

  // Monitors Vigil keeps paused say why in the words of the plan now applied.
  const planChanged = user.limitsPlan !== plan.name;
  const resumed = new Set(resume);
  const kept = planChanged
    ? monitors.filter((monitor) => monitor.paused && monitor.pauseReason !== null && !resumed.has(monitor))
    : [];
  const byReason = new Map<string, string[]>();
  for (const monitor of [...pause, ...kept]) {
    const reason = reasonOf(monitor);
    if (monitor.paused && monitor.pauseReason === reason) continue;
    byReason.set(reason, [...(byReason.get(reason) ?? []), monitor.id]);
  }
  for (const [reason, ids] of byReason) await tx.planLimits.pause(userId, ids, reason, now);
  await tx.planLimits.resume(
    userId,
    resume.map((monitor) => monitor.id),
    now,
  );

  const channelsDropped: MonitorRef[] = [];
  const intervalsRaised: MonitorRef[] = [];
  for (const monitor of monitors) {
    const alertSettings = await limitedChannels(tx, user, plan, monitor.alertSettings as AlertSettingsColumn);
    const raise = monitor.intervalSeconds < plan.minIntervalSeconds;
    if (!alertSettings && !raise) continue;
    await tx.planLimits.limitSettings(
      monitor.id,
      {
        ...(alertSettings ? { alertSettings } : {}),
        ...(raise ? { intervalSeconds: plan.minIntervalSeconds } : {}),
      },
      now,
    );
    if (alertSettings) channelsDropped.push(ref(monitor));
    if (raise) intervalsRaised.push(ref(monitor));
  }
  if (planChanged) await tx.planLimits.updateUser(userId, { limitsPlan: plan.name }, now);

  const change: Omit<PlanLimitsChange, 'noticeId'> = {
    userId,
    plan: plan.name,
    previousPlan: user.limitsPlan,
    freePeriodUntil,
    paused: pause.map(ref),
    resumed: resume.map(ref),
    channelsDropped,
    intervalsRaised,
  };
  const changedMonitors =
    pause.length + resume.length + channelsDropped.length + intervalsRaised.length + byReason.size > 0;
  if (!changedMonitors && !planChanged && freePeriodUntil === null) return null;
  let noticeId: string | null = null;
  if (pause.length + channelsDropped.length + intervalsRaised.length > 0) {
    const { subject, text } = noticeOf(plan, user, change, paidEnd !== null ? chosen!.name : null, paidEnd);
    noticeId = await tx.notices.add({
      userId,
      key: `plan-limits:${userId}:${plan.name}:${user.planExpiresAt}`,
      recipient: user.contactEmail ?? user.email,
      subject,
      text,
      now,
    });
  }
  return { ...change, noticeId };
}
