import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { Center, Group, Text } from '@mantine/core';
import type { MonitorStats, StatsRange } from '@vigil/contracts';
import { formatClock, formatDateTime, formatMonthDay, formatMs } from '../../../lib/format-time.ts';

/*
 * A plain SVG line chart: a few hundred points render in a few milliseconds, where the charting library it
 * replaces held the detail page's main thread for about two seconds on a phone. No animation.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 26, left: 52 };
/** Room between the axes and the first and last points, so a dot is not drawn on the axis. */
const INSET = 6;
const FALLBACK_WIDTH = 640;
const FAILURE_MARK = 6;

/** Bucket sizes of the stats series, as the contract documents them. */
const BUCKET_MS: Record<StatsRange, number> = { '24h': 5 * MINUTE, '7d': HOUR, '30d': HOUR };
/**
 * The shortest axis drawn (1 hour on the 24-hour view, 12 hours on the others): a new monitor's first points
 * sit at the left of an axis that fills up as checks come, instead of a sliver at the end of the whole range.
 */
const MIN_SPAN_BUCKETS = 12;

const COLORS = {
  p50: 'var(--mantine-color-vigil-6)',
  p95: 'var(--mantine-color-orange-6)',
  failure: 'var(--mantine-color-red-6)',
  grid: 'var(--mantine-color-default-border)',
  text: 'var(--mantine-color-dimmed)',
} as const;

// Which label a chart's ticks use follows its tick step, so a monitor a few hours old on the 30-day view reads
// "2 PM", not "Nov 24" four times.
const TICK_FORMATS: Record<'time' | 'dayHour' | 'day', (t: number) => string> = {
  time: (t) => formatClock(new Date(t)),
  dayHour: (t) => `${formatMonthDay(new Date(t))}, ${formatClock(new Date(t), { minutes: false })}`,
  day: (t) => formatMonthDay(new Date(t)),
};
/** Room each kind of label needs at 11 px, with space between labels; and half its width, to keep it in. */
const TICK_WIDTH = { time: 90, dayHour: 120, day: 70 };
const TICK_HALF_WIDTH = { time: 28, dayHour: 40, day: 22 };
const TICK_STEPS = [5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10_080].map(
  (minutes) => minutes * MINUTE,
);

type Point = MonitorStats['series'][number] & { t: number };

/** Time ticks on local-time boundaries (whole hours, midnights), as many as fit the width. */
function timeTicks(start: number, end: number, plotWidth: number) {
  const span = end - start;
  for (const step of TICK_STEPS) {
    const format = step >= DAY ? 'day' : span > DAY ? 'dayHour' : 'time';
    if (
      span / step <= Math.max(1, Math.floor(plotWidth / TICK_WIDTH[format])) ||
      step === TICK_STEPS.at(-1)
    ) {
      return {
        ticks: ticksEvery(start, end, step),
        format: TICK_FORMATS[format],
        half: TICK_HALF_WIDTH[format],
      };
    }
  }
  return { ticks: [], format: TICK_FORMATS.time, half: 0 };
}

function ticksEvery(start: number, end: number, step: number): number[] {
  const ticks: number[] = [];
  const day = new Date(start);
  day.setHours(0, 0, 0, 0);
  if (step >= DAY) {
    if (day.getTime() < start) day.setDate(day.getDate() + 1);
    for (; day.getTime() <= end; day.setDate(day.getDate() + step / DAY)) ticks.push(day.getTime());
    return ticks;
  }
  const midnight = day.getTime();
  for (let t = midnight + Math.ceil((start - midnight) / step) * step; t <= end; t += step) ticks.push(t);
  return ticks;
}

/** 0 and three or four round steps (whole milliseconds) up to just above the highest value. */
function valueTicks(max: number): number[] {
  if (max <= 0) return [0, 50, 100];
  const headroom = max * 1.05;
  const raw = headroom / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(
    1,
    [1, 2, 2.5, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? raw,
  );
  const top = Math.ceil(headroom / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
}

/**
 * Runs of points close enough in time to join with a line: a bucket whose checks all failed without an answer,
 * or a gap of more than two intervals (a paused monitor), breaks the line.
 */
function segmentsOf(points: Point[], maxGap: number): Point[][] {
  const segments: Point[][] = [];
  let current: Point[] = [];
  for (const point of points) {
    if (point.checks === 0) continue;
    const previous = current.at(-1);
    if (point.p50Ms === null || (previous && point.t - previous.t > maxGap)) {
      if (current.length > 0) segments.push(current);
      current = [];
    }
    if (point.p50Ms !== null) current.push(point);
  }
  if (current.length > 0) segments.push(current);
  return segments;
}

function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const measured = Math.floor(element.clientWidth);
      if (measured > 0) setWidth(measured);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

const round = (value: number) => Math.round(value * 10) / 10;

function LegendItem({
  color,
  label,
  swatch,
}: {
  color: string;
  label: string;
  swatch: 'line' | 'mark' | 'area';
}) {
  const style: CSSProperties =
    swatch === 'line'
      ? { width: 16, height: 3, borderRadius: 2, background: color }
      : swatch === 'mark'
        ? { width: 4, height: 10, background: color }
        : { width: 14, height: 10, background: color, opacity: 0.25 };
  return (
    <Group gap={6} wrap="nowrap">
      <span style={{ display: 'inline-block', ...style }} />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}

/**
 * p50 and p95 response times from the monitor's first check in the range to now, with buckets that had failed
 * checks marked in red on the time axis and downtime (its incidents) shaded red behind the lines. Hidden from
 * screen readers: the figure's caption says what it shows.
 */
export function ResponseTimeChart({
  stats,
  intervalSeconds = 0,
}: {
  stats: MonitorStats;
  /** The monitor's check interval: points further apart than two intervals are not joined. */
  intervalSeconds?: number;
}) {
  const [ref, width] = useWidth(FALLBACK_WIDTH);
  const bucketMs = BUCKET_MS[stats.range] ?? HOUR;
  const series: Point[] = stats.series.map((point) => ({ ...point, t: Date.parse(point.at) }));
  const firstChecked = series.findIndex((point) => point.checks > 0);

  if (firstChecked === -1) {
    return (
      <Center h={HEIGHT} aria-hidden="true" data-testid="response-time-chart">
        <Text size="sm" c="dimmed">
          No checks in this period yet
        </Text>
      </Center>
    );
  }

  const points = series.slice(firstChecked);
  const start = points[0]!.t;
  const end = Math.max(points.at(-1)!.t, start + MIN_SPAN_BUCKETS * bucketMs);
  const plotWidth = Math.max(1, width - MARGIN.left - MARGIN.right);
  const drawnWidth = Math.max(1, plotWidth - 2 * INSET);
  const plotBottom = HEIGHT - MARGIN.bottom;
  const plotHeight = plotBottom - MARGIN.top;
  const x = (t: number) => round(MARGIN.left + INSET + ((t - start) / (end - start)) * drawnWidth);
  const bucketWidth = Math.max(1, (bucketMs / (end - start)) * drawnWidth);

  const values = points.flatMap((point) => [point.p50Ms ?? 0, point.p95Ms ?? 0]);
  const yTicks = valueTicks(Math.max(...values));
  const yTop = yTicks.at(-1)!;
  const y = (value: number) => round(plotBottom - (value / yTop) * plotHeight);

  const segments = segmentsOf(points, 2 * Math.max(bucketMs, intervalSeconds * 1000));
  const dotted = segments.reduce((sum, segment) => sum + segment.length, 0) <= 24;
  const { ticks, format, half } = timeTicks(start, end, drawnWidth);
  const failed = points.filter((point) => point.failures > 0);
  const downtime = (stats.downtime ?? []).flatMap((period) => {
    const from = Math.max(Date.parse(period.from), start);
    const to = Math.min(period.to === null ? end : Date.parse(period.to), end);
    return to < start || from > end ? [] : [{ ...period, x: x(from), width: Math.max(2, x(to) - x(from)) }];
  });

  const path = (segment: Point[], key: 'p50Ms' | 'p95Ms') =>
    segment
      .map((point, i) => `${i === 0 ? 'M' : 'L'}${x(point.t)} ${y(point[key] ?? point.p50Ms ?? 0)}`)
      .join('');

  return (
    <div ref={ref} aria-hidden="true" data-testid="response-time-chart">
      <svg
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        style={{ display: 'block', maxWidth: '100%', fontSize: 11 }}
        data-start={new Date(start).toISOString()}
      >
        {downtime.map((period) => (
          <rect
            key={period.from}
            data-testid="downtime"
            x={period.x}
            y={MARGIN.top}
            width={round(period.width)}
            height={plotHeight}
            fill={COLORS.failure}
            fillOpacity={0.14}
          >
            <title>
              {`Down from ${formatDateTime(period.from)}${period.to ? ` to ${formatDateTime(period.to)}` : ', not resolved yet'}`}
            </title>
          </rect>
        ))}
        {yTicks.map((value) => (
          <g key={value}>
            <line
              x1={MARGIN.left}
              x2={MARGIN.left + plotWidth}
              y1={y(value)}
              y2={y(value)}
              stroke={COLORS.grid}
              strokeDasharray={value === 0 ? undefined : '3 3'}
            />
            <text x={MARGIN.left - 6} y={y(value)} dy="0.32em" textAnchor="end" fill={COLORS.text}>
              {formatMs(value)}
            </text>
          </g>
        ))}
        {ticks
          // A label that would stick out of the chart is left out; its neighbours say the time.
          .filter((t) => x(t) + half <= width)
          .map((t) => (
            <g key={t}>
              <line x1={x(t)} x2={x(t)} y1={plotBottom} y2={plotBottom + 4} stroke={COLORS.grid} />
              <text x={x(t)} y={plotBottom + 16} textAnchor="middle" fill={COLORS.text}>
                {format(t)}
              </text>
            </g>
          ))}
        {segments.map((segment) => (
          <g key={segment[0]!.t}>
            <path d={path(segment, 'p95Ms')} fill="none" stroke={COLORS.p95} strokeWidth={1.5} />
            <path d={path(segment, 'p50Ms')} fill="none" stroke={COLORS.p50} strokeWidth={2} />
            {dotted || segment.length === 1
              ? segment.map((point) => (
                  <g key={point.t} data-testid="chart-dot">
                    <circle
                      cx={x(point.t)}
                      cy={y(point.p95Ms ?? point.p50Ms ?? 0)}
                      r={2.5}
                      fill={COLORS.p95}
                    />
                    <circle cx={x(point.t)} cy={y(point.p50Ms ?? 0)} r={3} fill={COLORS.p50} />
                  </g>
                ))
              : null}
          </g>
        ))}
        {failed.map((point) => (
          <rect
            key={point.t}
            data-testid="failure-mark"
            x={round(x(point.t) - Math.max(3, bucketWidth * 0.8) / 2)}
            y={plotBottom - FAILURE_MARK}
            width={round(Math.max(3, bucketWidth * 0.8))}
            height={FAILURE_MARK}
            fill={COLORS.failure}
          />
        ))}
        {/* On top, invisible: a column per bucket with checks, whose tooltip gives its numbers. */}
        {points
          .filter((point) => point.checks > 0)
          .map((point) => (
            <rect
              key={point.t}
              x={round(x(point.t) - Math.max(4, bucketWidth) / 2)}
              y={MARGIN.top}
              width={round(Math.max(4, bucketWidth))}
              height={plotHeight}
              fill="transparent"
            >
              <title>{bucketTitle(point)}</title>
            </rect>
          ))}
      </svg>
      <Group gap="md" mt={4} ml={MARGIN.left}>
        <LegendItem color={COLORS.p50} label="Median (p50)" swatch="line" />
        <LegendItem color={COLORS.p95} label="95th percentile" swatch="line" />
        {failed.length > 0 ? <LegendItem color={COLORS.failure} label="Failed checks" swatch="mark" /> : null}
        {downtime.length > 0 ? <LegendItem color={COLORS.failure} label="Downtime" swatch="area" /> : null}
      </Group>
    </div>
  );
}

function bucketTitle(point: Point): string {
  const parts = [formatDateTime(point.at)];
  if (point.p50Ms !== null) parts.push(`median ${formatMs(point.p50Ms)}, p95 ${formatMs(point.p95Ms)}`);
  parts.push(
    point.failures > 0
      ? `${point.failures} of ${point.checks} ${point.checks === 1 ? 'check' : 'checks'} failed`
      : `${point.checks} ${point.checks === 1 ? 'check' : 'checks'} passed`,
  );
  return parts.join(' · ');
}
