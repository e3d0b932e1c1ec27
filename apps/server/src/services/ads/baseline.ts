import { BASELINE_MIN_WEEKS, BASELINE_WEEKS } from '@vigil/contracts';
import type { ConditionResult } from '../../checks/checker.ts';

/**
 * The spend and impressions conditions of both ads services. Each provider reports an account's figures per
 * hour of its own time zone (Google `segments.date`/`segments.hour`, Meta's
 * `hourly_stats_aggregated_by_advertiser_time_zone`); today so far is compared with the same weekday of the
 * last 4 weeks by the same time of day, because Tuesday 14:00 and Sunday 03:00 are different businesses.
 */

/** One hour of an account: `date` (YYYY-MM-DD) and `hour` (0–23) in the account's time zone. */
export interface HourFigures {
  date: string;
  hour: number;
  /** In the currency's major unit. */
  spend: number;
  impressions: number;
}

export interface LocalTime {
  date: string;
  hour: number;
  /** Share of the current hour gone, 0–1. */
  hourFraction: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
}

/** Below this much spend by this time of day (major units) there is too little to compare. */
export const MIN_COMPARABLE_SPEND = 5;
/** Share of the baseline weeks that must have had impressions by now for "none today" to be unusual. */
const USUALLY_SERVING_SHARE = 0.75;

const WEEKDAYS = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date and hour in `timeZone` at `at`. An unknown zone reads as UTC. */
export function localTime(timeZone: string, at: Date): LocalTime {
  let format = formatters.get(timeZone);
  if (!format) {
    try {
      format = localFormat(timeZone);
    } catch {
      format = localFormat('UTC');
    }
    formatters.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const date = `${part.year}-${part.month}-${part.day}`;
  return {
    date,
    hour: Number(part.hour),
    hourFraction: Number(part.minute) / 60,
    weekday: new Date(`${date}T00:00:00Z`).getUTCDay(),
  };
}

function localFormat(timeZone: string) {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** `date` moved by whole days (calendar arithmetic on the date alone). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The same weekday in each of the last `weeks` weeks, newest first. */
export function sameWeekdayDates(date: string, weeks = BASELINE_WEEKS): string[] {
  return Array.from({ length: weeks }, (_, i) => addDays(date, -7 * (i + 1)));
}

/** Today and the baseline dates: what a provider is asked for. */
export function datesNeeded(now: LocalTime): string[] {
  return [now.date, ...sameWeekdayDates(now.date)];
}

interface SoFar {
  spend: number;
  impressions: number;
}

/** A day's figures up to the same time of day: whole hours before `hour`, and that share of `hour` itself. */
function soFar(points: readonly HourFigures[], date: string, now: LocalTime, isToday: boolean): SoFar {
  const total = { spend: 0, impressions: 0 };
  for (const point of points) {
    if (point.date !== date || point.hour > now.hour) continue;
    // Today's current hour is already partial; a past day's same hour counts in proportion.
    const share = point.hour < now.hour || isToday ? 1 : now.hourFraction;
    total.spend += point.spend * share;
    total.impressions += point.impressions * share;
  }
  return total;
}

export interface Baseline {
  now: LocalTime;
  today: SoFar;
  /** Each baseline week that had any figures that day (the account was running), by the same time. */
  weeks: SoFar[];
}

export function baselineOf(points: readonly HourFigures[], now: LocalTime): Baseline {
  const daysWithData = new Set(points.map((point) => point.date));
  return {
    now,
    today: soFar(points, now.date, now, true),
    weeks: sameWeekdayDates(now.date)
      .filter((date) => daysWithData.has(date))
      .map((date) => soFar(points, date, now, false)),
  };
}

const clock = (now: LocalTime) =>
  `${String(now.hour).padStart(2, '0')}:${String(Math.floor(now.hourFraction * 60)).padStart(2, '0')}`;

function tooLittleHistory(key: string, baseline: Baseline): ConditionResult | null {
  if (baseline.weeks.length >= BASELINE_MIN_WEEKS) return null;
  return {
    key,
    ok: null,
    summary: `too little history to compare: ${baseline.weeks.length} of the last ${BASELINE_WEEKS} ${WEEKDAYS[baseline.now.weekday]} had figures (${BASELINE_MIN_WEEKS} needed).`,
  };
}

const currencyFormats = new Map<string, Intl.NumberFormat | null>();

/** "$1,234.50", "€12.00"; an unknown currency code as "12.00 XYZ". Formats are made once per currency. */
export function money(amount: number, currency: string): string {
  let format = currencyFormats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      format = null;
    }
    currencyFormats.set(currency, format);
  }
  return format ? format.format(amount) : `${amount.toFixed(2)} ${currency}`;
}

/** Spend so far today against the same weekday's usual spend by this time, `changePercent` either way. */
export function judgeSpend(baseline: Baseline, changePercent: number, currency: string): ConditionResult {
  const key = 'spend_anomaly';
  const tooLittle = tooLittleHistory(key, baseline);
  if (tooLittle) return tooLittle;
  const usual = baseline.weeks.reduce((sum, week) => sum + week.spend, 0) / baseline.weeks.length;
  const today = baseline.today.spend;
  const when = `by ${clock(baseline.now)} on ${WEEKDAYS[baseline.now.weekday]}`;
  if (usual < MIN_COMPARABLE_SPEND && today < MIN_COMPARABLE_SPEND) {
    return {
      key,
      ok: true,
      summary: `Spend so far today ${money(today, currency)}; usually ${money(usual, currency)} ${when}, too little to compare yet.`,
    };
  }
  const change = ((today - usual) / Math.max(usual, MIN_COMPARABLE_SPEND)) * 100;
  const words = `Spend so far today ${money(today, currency)} is ${Math.round(Math.abs(change))}% ${change >= 0 ? 'above' : 'below'} the usual ${money(usual, currency)} ${when}`;
  return Math.abs(change) > changePercent
    ? { key, ok: false, summary: `${words} (more than ${changePercent}% off).` }
    : { key, ok: true, summary: `${words}.` };
}

/** No impressions so far today, by a time of day that usually has them on this weekday. */
export function judgeImpressions(baseline: Baseline): ConditionResult {
  const key = 'zero_impressions';
  const tooLittle = tooLittleHistory(key, baseline);
  if (tooLittle) return tooLittle;
  const today = Math.round(baseline.today.impressions);
  if (today > 0)
    return { key, ok: true, summary: `${today.toLocaleString('en-US')} impressions so far today.` };
  const serving = baseline.weeks.filter((week) => week.impressions >= 1);
  const when = `by ${clock(baseline.now)}`;
  if (serving.length < Math.ceil(baseline.weeks.length * USUALLY_SERVING_SHARE)) {
    return {
      key,
      ok: true,
      summary: `No impressions yet today, as usual ${when} on ${WEEKDAYS[baseline.now.weekday]}.`,
    };
  }
  const usual = Math.round(serving.reduce((sum, week) => sum + week.impressions, 0) / serving.length);
  return {
    key,
    ok: false,
    summary: `No impressions so far today ${when}; ${WEEKDAYS[baseline.now.weekday]} usually have ${usual.toLocaleString('en-US')} by then.`,
  };
}

/** Spend from `since` up to now (its first hour in proportion); only the hours in `points` count. */
export function spendSince(points: readonly HourFigures[], since: LocalTime): number {
  let total = 0;
  for (const point of points) {
    if (point.date < since.date || (point.date === since.date && point.hour < since.hour)) continue;
    const share = point.date === since.date && point.hour === since.hour ? 1 - since.hourFraction : 1;
    total += point.spend * share;
  }
  return total;
}
