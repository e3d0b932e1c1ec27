import type { MonitorStats, StatsRange } from '@vigil/contracts';
import { formatDateTime, formatMs } from '../../lib/format-time.ts';

export const RANGE_LABELS: Record<StatsRange, string> = {
  '24h': 'last 24 hours',
  '7d': 'last 7 days',
  '30d': 'last 30 days',
};

/**
 * The chart's text alternative: the average median response time, the worst 95th percentile and when it
 * happened, and how many checks failed.
 */
export function summariseStats(stats: Pick<MonitorStats, 'range' | 'series'>): string {
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
  return `${period}, ${[...parts, failed].join('; ')}.`;
}
