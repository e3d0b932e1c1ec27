// Dates, times and counts are written as Intl's en-US formats write them, by hand. The first Intl object a page
// makes sets up ICU's locale data: 20–27 ms of main thread here, about 100 ms on Lighthouse's simulated phone, in
// the middle of the first render of the monitor list and detail, which need nothing else from it. The tests hold
// each of these to Intl's own output. Money keeps Intl (formatMoney): currency symbols are its data.

type RelativeUnit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute';

const UNITS: [RelativeUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

/** What `Intl.RelativeTimeFormat` with `numeric: 'auto'` says for one unit back and forward. */
const NAMED: Partial<Record<RelativeUnit, readonly [string, string]>> = {
  year: ['last year', 'next year'],
  month: ['last month', 'next month'],
  week: ['last week', 'next week'],
  day: ['yesterday', 'tomorrow'],
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** 1234567 → '1,234,567': a whole number with thousands separators, as `toLocaleString('en-US')` writes it. */
export function formatCount(n: number): string {
  const digits = String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

/** -3, 'minute' → '3 minutes ago'; -1, 'day' → 'yesterday'; 2, 'week' → 'in 2 weeks'. `value` is never 0. */
export function formatRelative(value: number, unit: RelativeUnit): string {
  const named = Math.abs(value) === 1 ? NAMED[unit] : undefined;
  if (named) return named[value < 0 ? 0 : 1];
  const size = Math.abs(value);
  const amount = `${formatCount(size)} ${unit}${size === 1 ? '' : 's'}`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
}

/** '5 minutes ago', 'yesterday', 'just now'; '—' for no time at all. */
export function formatRelativeTime(iso: string | null, now: number = Date.now()): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return formatRelative(Math.round(seconds / size), unit);
  }
  return formatRelative(Math.round(seconds / 60) || (seconds < 0 ? -1 : 1), 'minute');
}

export interface ClockOptions {
  /** '09:05 AM' rather than '9:05 AM' (Intl's `hour: '2-digit'`). */
  twoDigitHour?: boolean;
  /** '9 AM' without them. */
  minutes?: boolean;
  seconds?: boolean;
}

/** The local time on a 12-hour clock: '9:05 AM', '09:05:30 PM', '12 AM'. */
export function formatClock(
  at: Date,
  { twoDigitHour = false, minutes = true, seconds = false }: ClockOptions = {},
): string {
  const hour = at.getHours() % 12 || 12;
  let text = twoDigitHour ? twoDigits(hour) : String(hour);
  if (minutes) text += `:${twoDigits(at.getMinutes())}`;
  if (seconds) text += `:${twoDigits(at.getSeconds())}`;
  return `${text} ${at.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** The local day as 'Mar 10'. */
export function formatMonthDay(at: Date): string {
  return `${MONTHS[at.getMonth()]} ${at.getDate()}`;
}

/** The local day as 'March 10, 2026'. */
export function formatLongDate(at: Date): string {
  return `${LONG_MONTHS[at.getMonth()]} ${at.getDate()}, ${at.getFullYear()}`;
}

function formatWith(iso: string | null, clock: ClockOptions): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '—' : `${formatMonthDay(at)}, ${formatClock(at, clock)}`;
}

/** A date and time, for titles and tables: 'Mar 10, 09:05 AM'. */
export function formatDateTime(iso: string | null): string {
  return formatWith(iso, { twoDigitHour: true });
}

/** A date and time to the second ('Mar 10, 11:00:05 AM'), where events seconds apart must read apart. */
export function formatDateTimeSeconds(iso: string | null): string {
  return formatWith(iso, { twoDigitHour: true, seconds: true });
}

/** 99.95 → '99.95%', 100 → '100%', null → '—'. */
export function formatPercent(value: number | null): string {
  if (value === null) return '—';
  const rounded = Math.floor(value * 100) / 100;
  return `${rounded}%`;
}

/** 850 → '850 ms', 1530 → '1.53 s', null → '—'. */
export function formatMs(value: number | null): string {
  if (value === null) return '—';
  if (value < 1000) return `${Math.round(value)} ms`;
  return `${Number((value / 1000).toFixed(2))} s`;
}

/** 30 → '30 seconds', 60 → '1 minute', 300 → '5 minutes', 3600 → '1 hour'. */
export function formatInterval(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}
