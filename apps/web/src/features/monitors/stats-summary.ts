import type { MonitorStats, StatsRange } from '@vigil/contracts';
import { formatDateTime, formatMs } from '../../lib/format-time.ts';

export const RANGE_LABELS: Record<StatsRange, string> = {
  '24h': 'last 24 hours',
  '7d': 'last 7 days',
  '30d': 'last 30 days',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** 25 minutes, 3 hours 5 minutes, 2 days 4 hours: the two largest units. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24)
    return [plural(hours, 'hour'), ...(minutes % 60 ? [plural(minutes % 60, 'minute')] : [])].join(' ');
  const days = Math.floor(hours / 24);
  return [plural(days, 'day'), ...(hours % 24 ? [plural(hours % 24, 'hour')] : [])].join(' ');
}

/** How often and how long the monitor was down: "down twice, 1 hour 5 minutes in all, and still down". */
function downtimeOf(downtime: MonitorStats['downtime'], now: number): string | null {
  if (downtime.length === 0) return null;
  const total = downtime.reduce(
    (sum, period) => sum + ((period.to === null ? now : Date.parse(period.to)) - Date.parse(period.from)),
    0,
  );
  const times = downtime.length === 1 ? 'once' : downtime.length === 2 ? 'twice' : `${downtime.length} times`;
  const still = downtime.at(-1)?.to === null ? ', and still down' : '';
  return downtime.length === 1
    ? `down for ${formatDuration(total)}${still}`
    : `down ${times}, ${formatDuration(total)} in all${still}`;
}

/**
 * The chart's text alternative: the average median response time, the worst 95th percentile and when it
 * happened, how many checks failed, and the downtime.
 */
export function summariseStats(
  stats: Pick<MonitorStats, 'range' | 'series'> & Partial<Pick<MonitorStats, 'downtime'>>,
  now: number = Date.now(),
): string {
  const period = `Over the ${RANGE_LABELS[stats.range]}`;
  const points = stats.series.filter((point) => point.checks > 0);
  if (points.length === 0) return `${period}, no checks have run yet.`;
  const medians = points.filter((point) => point.p50Ms !== null);
  const checks = points.reduce((sum, point) => sum + point.checks, 0);
  const failures = points.reduce((sum, point) => sum + point.failures, 0);
  const parts: string[] = [];
  if (medians.length > 0) {
    const weighted = medians.reduce((sum, point) => sum + (point.p50Ms ?? 0) * point.checks, 0);
    const weight = medians.reduce((sum, point) => sum + point.checks, 0);
    parts.push(`the median response time averaged ${formatMs(weighted / weight)}`);
  }
  const worst = points.reduce<(typeof points)[number] | null>(
    (max, point) => (point.p95Ms !== null && (max === null || point.p95Ms > (max.p95Ms ?? 0)) ? point : max),
    null,
  );
  if (worst)
    parts.push(`the slowest 95th percentile was ${formatMs(worst.p95Ms)} (${formatDateTime(worst.at)})`);
  const failed =
    failures === 0
      ? checks === 1
        ? '1 check succeeded'
        : `all ${checks} checks succeeded`
      : `${failures} of ${checks} ${checks === 1 ? 'check' : 'checks'} failed`;
  const down = downtimeOf(stats.downtime ?? [], now);
  return `${period}, ${[...parts, failed, ...(down ? [down] : [])].join('; ')}.`;
}
