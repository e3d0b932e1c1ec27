import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import type { MonitorStats, StatsRange } from '@vigil/contracts';

// One formatter per range, made once: a new one per point cost a few hundred ms of main thread on a phone.
const TICKS: Record<StatsRange, Intl.DateTimeFormat> = {
  '24h': new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit' }),
  '7d': new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: '2-digit' }),
  '30d': new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }),
};

function tick(at: string, range: StatsRange): string {
  return (TICKS[range] ?? TICKS['30d']).format(new Date(at));
}

/** p50 and p95 response times over the range. Loaded on demand: the charting code stays out of the entry. */
export default function ResponseTimeChart({ stats }: { stats: MonitorStats }) {
  const data = stats.series.map((point) => ({
    time: tick(point.at, stats.range),
    p50: point.p50Ms,
    p95: point.p95Ms,
  }));
  return (
    <LineChart
      h={260}
      data={data}
      dataKey="time"
      series={[
        { name: 'p50', label: 'Median (p50)', color: 'vigil.6' },
        { name: 'p95', label: '95th percentile', color: 'orange.6' },
      ]}
      unit=" ms"
      curveType="monotone"
      withDots={false}
      withLegend
      connectNulls={false}
      tickLine="y"
      gridAxis="y"
      aria-hidden="true"
      lineChartProps={{ accessibilityLayer: false }}
    />
  );
}
