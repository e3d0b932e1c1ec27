import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CheckResult } from '@vigil/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aMonitor, failed, ok } from '../../../test/monitor-fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { getMonitorChecks } from '../api/get-monitor-checks.ts';
import { RecentChecks } from './recent-checks.tsx';

vi.mock('../api/get-monitor-checks.ts', () => ({ getMonitorChecks: vi.fn() }));

const monitor = aMonitor({ monitorId: '00000000-0000-4000-8000-000000000001' });
const check = (minute: number, result: Partial<CheckResult> = {}): CheckResult => ({
  at: new Date(Date.UTC(2026, 2, 10, 14, minute)).toISOString(),
  ok: true,
  responseMs: 120 + minute,
  statusCode: 200,
  error: null,
  ...result,
});

const bars = (kind: string) =>
  screen.getByTestId('check-status-bar').querySelectorAll(`[data-check="${kind}"]`);

beforeEach(() => vi.mocked(getMonitorChecks).mockReset());

describe('RecentChecks', () => {
  it('draws a bar per check, oldest left, green or red, gray slots before them, and sums them up in words', async () => {
    vi.mocked(getMonitorChecks).mockResolvedValue(
      ok({
        checks: [
          check(0),
          check(1, {
            ok: false,
            responseMs: null,
            statusCode: 503,
            error: 'HTTP 503 from https://shop.example',
          }),
          check(2),
        ],
      }),
    );
    renderWithProviders(<RecentChecks monitor={monitor} />);
    const summary = await screen.findByText(
      /^Last 3 checks: 2 passed, 1 failed; last failure .* \(HTTP 503\)\.$/,
    );
    expect(summary).toBeVisible();
    const bar = screen.getByTestId('check-status-bar');
    expect(bar).toHaveAttribute('aria-hidden', 'true');
    const shown = [...bar.children].map((child) => child.getAttribute('data-check'));
    expect(shown).toHaveLength(100);
    expect(shown.slice(0, 97).every((kind) => kind === 'empty')).toBe(true);
    expect(shown.slice(97)).toEqual(['passed', 'failed', 'passed']);
    expect(bars('failed')[0]).toHaveAttribute(
      'title',
      expect.stringMatching(/ · Failed · HTTP 503 from https:\/\/shop\.example$/),
    );
    expect(bars('passed')[1]).toHaveAttribute(
      'title',
      expect.stringMatching(/ · Passed · 122 ms · HTTP 200$/),
    );
    expect(bars('failed')[0]!.getAttribute('style')).toContain('var(--mantine-color-red-6)');
    expect(bars('passed')[0]!.getAttribute('style')).toContain('var(--mantine-color-green-6)');
    expect(getMonitorChecks).toHaveBeenCalledWith({ monitorId: monitor.monitorId }, expect.any(AbortSignal));
  });

  it('shows the last 100 of a long history', async () => {
    vi.mocked(getMonitorChecks).mockResolvedValue(
      ok({
        checks: Array.from({ length: 100 }, (_, i) =>
          check(i % 60, { at: new Date(i * 60_000).toISOString() }),
        ),
      }),
    );
    renderWithProviders(<RecentChecks monitor={monitor} />);
    expect(await screen.findByText('Last 100 checks: all 100 passed.')).toBeInTheDocument();
    expect(bars('passed')).toHaveLength(100);
    expect(bars('empty')).toHaveLength(0);
  });

  it('says when no check has run yet', async () => {
    vi.mocked(getMonitorChecks).mockResolvedValue(ok({ checks: [] }));
    renderWithProviders(<RecentChecks monitor={monitor} />);
    expect(await screen.findByText('No checks have run yet.')).toBeInTheDocument();
    expect(bars('empty')).toHaveLength(100);
  });

  it('offers to try again when the checks could not be loaded', async () => {
    vi.mocked(getMonitorChecks)
      .mockResolvedValueOnce(failed())
      .mockResolvedValue(ok({ checks: [check(0)] }));
    const user = userEvent.setup();
    renderWithProviders(<RecentChecks monitor={monitor} />);
    expect(await screen.findByText('The recent checks could not be loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/^Last check: passed at /)).toBeInTheDocument();
  });
});
