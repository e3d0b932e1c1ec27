import { screen } from '@testing-library/react';
import type { MonitorStats } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { ResponseTimeChart } from './response-time-chart.tsx';

const FIVE_MINUTES = 5 * 60_000;
const START = Date.parse('2026-03-10T00:00:00Z');

/** A 24-hour series of 288 empty buckets, with the given buckets (by index) filled in. */
function day(
  filled: Record<number, Partial<MonitorStats['series'][number]>>,
  downtime: MonitorStats['downtime'] = [],
) {
  const series = Array.from({ length: 288 }, (_, i) => ({
    at: new Date(START + i * FIVE_MINUTES).toISOString(),
    checks: 0,
    failures: 0,
    p50Ms: null as number | null,
    p95Ms: null as number | null,
    ...filled[i],
  }));
  return {
    range: '24h',
    uptime: { '24h': 100, '7d': 100, '30d': 100 },
    series,
    downtime,
  } satisfies MonitorStats;
}

const svg = () => screen.getByTestId('response-time-chart').querySelector('svg')!;
const dots = () => screen.queryAllByTestId('chart-dot');

describe('ResponseTimeChart', () => {
  it('draws a single check as a dot at the start of its axis', () => {
    renderWithProviders(<ResponseTimeChart stats={day({ 287: { checks: 1, p50Ms: 180, p95Ms: 180 } })} />);
    expect(dots()).toHaveLength(1);
    expect(svg()).toHaveAttribute('data-start', new Date(START + 287 * FIVE_MINUTES).toISOString());
    const [p95, p50] = dots()[0]!.querySelectorAll('circle');
    // At the left of the plot (its margin and inset), not at the right end of a 24-hour axis.
    expect(p50).toHaveAttribute('cx', '58');
    expect(p95).toHaveAttribute('cx', '58');
    expect(svg().querySelectorAll('path')).toHaveLength(2);
    expect(screen.getByText('Median (p50)')).toBeInTheDocument();
    expect(screen.getByText('95th percentile')).toBeInTheDocument();
  });

  it('starts the time axis at the first bucket with checks, not at the start of the range, and joins the points', () => {
    const filled = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [258 + i, { checks: 1, p50Ms: 100 + i, p95Ms: 200 + i }]),
    );
    renderWithProviders(<ResponseTimeChart stats={day(filled)} intervalSeconds={300} />);
    expect(svg()).toHaveAttribute('data-start', new Date(START + 258 * FIVE_MINUTES).toISOString());
    // 30 points in one run: one line each for p50 and p95, no dots.
    const lines = svg().querySelectorAll('path');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.getAttribute('d')).toMatch(/^M58 /);
    expect(lines[1]!.getAttribute('d')!.match(/L/g)).toHaveLength(29);
    expect(dots()).toHaveLength(0);
    // The y axis has round steps in ms.
    expect(screen.getByText('0 ms')).toBeInTheDocument();
    expect(screen.getByText('300 ms')).toBeInTheDocument();
  });

  it('marks buckets with failed checks and shades downtime behind the lines', () => {
    const stats = day(
      {
        270: { checks: 1, p50Ms: 100, p95Ms: 100 },
        271: { checks: 1, failures: 1 },
        272: { checks: 1, failures: 1 },
        273: { checks: 1, p50Ms: 120, p95Ms: 130 },
      },
      [
        {
          from: new Date(START + 100 * FIVE_MINUTES).toISOString(),
          to: new Date(START + 200 * FIVE_MINUTES).toISOString(),
        },
        {
          from: new Date(START + 271 * FIVE_MINUTES).toISOString(),
          to: new Date(START + 273 * FIVE_MINUTES).toISOString(),
        },
      ],
    );
    renderWithProviders(<ResponseTimeChart stats={stats} intervalSeconds={300} />);
    expect(screen.getAllByTestId('failure-mark')).toHaveLength(2);
    // Downtime before the first check in range is outside the axis; the one after shows.
    const downtime = screen.getAllByTestId('downtime');
    expect(downtime).toHaveLength(1);
    expect(downtime[0]).toHaveAttribute('fill', 'var(--mantine-color-red-6)');
    expect(Number(downtime[0]!.getAttribute('width'))).toBeGreaterThan(2);
    // Drawn first: behind the grid and the lines.
    expect(svg().firstElementChild).toBe(downtime[0]);
    // The failures without a response time break the line: two single points, each a dot.
    expect(dots()).toHaveLength(2);
    expect(screen.getByText('Failed checks')).toBeInTheDocument();
    expect(screen.getByText('Downtime')).toBeInTheDocument();
  });

  it('says so when the range has no checks', () => {
    renderWithProviders(<ResponseTimeChart stats={day({})} />);
    expect(screen.getByText('No checks in this period yet')).toBeInTheDocument();
  });
});
