const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** '5 minutes ago', 'yesterday', 'just now'; '—' for no time at all. */
export function formatRelativeTime(iso: string | null, now: number = Date.now()): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds / 60) || (seconds < 0 ? -1 : 1), 'minute');
}

// Made once: a formatter per call costs a few hundred ms of main thread on a phone in long lists.
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const DATE_TIME_SECONDS = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function formatWith(format: Intl.DateTimeFormat, iso: string | null): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '—' : format.format(at);
}

/** A full date and time in the user's locale, for titles and tables. */
export function formatDateTime(iso: string | null): string {
  return formatWith(DATE_TIME, iso);
}

/** A date and time to the second ('Mar 10, 11:00:05 AM'), where events seconds apart must read apart. */
export function formatDateTimeSeconds(iso: string | null): string {
  return formatWith(DATE_TIME_SECONDS, iso);
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
