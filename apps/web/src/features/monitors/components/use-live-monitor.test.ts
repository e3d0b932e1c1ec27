import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Monitor } from '@vigil/contracts';
import type { ApiResult } from '../../../lib/api-client.ts';
import { REFRESH_MS } from '../../../lib/use-request.ts';
import { checkMonitorNow } from '../api/check-monitor-now.ts';
import { getMonitorInfo, peekMonitorInfo } from '../api/get-monitor-info.ts';
import { FIRST_CHECK_FOR_MS, useLiveMonitor, WATCH_MS } from './use-live-monitor.ts';

vi.mock('../api/get-monitor-info.ts', () => ({ getMonitorInfo: vi.fn(), peekMonitorInfo: vi.fn() }));
vi.mock('../api/check-monitor-now.ts', () => ({ checkMonitorNow: vi.fn() }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
const fetchMonitor = vi.mocked(getMonitorInfo);

/** The server's monitor as it is now: only what the hook reads matters here. */
let current: Pick<Monitor, 'monitorId' | 'paused' | 'lastCheckedAt'>;

async function elapse(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** Lets `times` periods of `ms` pass, each rendered before the next (as a real page would). */
async function elapseTimes(times: number, ms: number) {
  for (let i = 0; i < times; i++) await elapse(ms);
}

describe('useLiveMonitor', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.mocked(peekMonitorInfo).mockReturnValue(undefined);
    fetchMonitor.mockReset();
    fetchMonitor.mockImplementation(() =>
      Promise.resolve({ ok: true, status: 200, data: { ...current } as Monitor } as ApiResult<Monitor>),
    );
    current = { monitorId: 'm1', paused: false, lastCheckedAt: null };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refreshes a new monitor every 2 s until its first check shows, then every 30 s', async () => {
    const { result } = renderHook(() => useLiveMonitor('m1'));
    await elapse(0);
    expect(fetchMonitor).toHaveBeenCalledTimes(1);
    expect(result.current.info.data?.lastCheckedAt).toBeNull();

    await elapse(WATCH_MS);
    expect(fetchMonitor).toHaveBeenCalledTimes(2);
    current = { ...current, lastCheckedAt: '2026-11-28T12:25:00.000Z' };
    await elapse(WATCH_MS);
    expect(fetchMonitor).toHaveBeenCalledTimes(3);
    expect(result.current.info.data?.lastCheckedAt).toBe('2026-11-28T12:25:00.000Z');
    // Checked: the page goes back to its usual pace.
    await elapse(REFRESH_MS - WATCH_MS);
    expect(fetchMonitor).toHaveBeenCalledTimes(3);
    await elapse(WATCH_MS);
    expect(fetchMonitor).toHaveBeenCalledTimes(4);
    expect(result.current.watching).toBe(false);
  });

  it('stops waiting for a first check after a minute', async () => {
    renderHook(() => useLiveMonitor('m1'));
    await elapseTimes(FIRST_CHECK_FOR_MS / WATCH_MS, WATCH_MS);
    // About one answer every 2 s for the minute (the first and last may fall either side of it).
    expect(fetchMonitor.mock.calls.length).toBeGreaterThanOrEqual(FIRST_CHECK_FOR_MS / WATCH_MS - 1);
    await elapseTimes(2, WATCH_MS);
    // Then one every 30 s: two in the next minute, where the 2 s pace would make thirty.
    const calls = fetchMonitor.mock.calls.length;
    await elapseTimes((2 * REFRESH_MS) / WATCH_MS, WATCH_MS);
    expect(fetchMonitor.mock.calls.length - calls).toBeGreaterThanOrEqual(1);
    expect(fetchMonitor.mock.calls.length - calls).toBeLessThanOrEqual(2);
  });

  it('refreshes a paused monitor that was never checked at the usual pace', async () => {
    current = { ...current, paused: true };
    renderHook(() => useLiveMonitor('m1'));
    await elapse(REFRESH_MS - 1);
    expect(fetchMonitor).toHaveBeenCalledTimes(1);
    await elapse(1);
    expect(fetchMonitor).toHaveBeenCalledTimes(2);
  });

  it('waits for the first check again once a paused monitor is started', async () => {
    current = { ...current, paused: true };
    const { result } = renderHook(() => useLiveMonitor('m1'));
    // Opened long ago, then started: its first check is on its way now.
    await elapseTimes(3, REFRESH_MS);
    expect(fetchMonitor).toHaveBeenCalledTimes(4);
    current = { ...current, paused: false };
    act(() => result.current.info.reload());
    await elapse(0);
    expect(result.current.info.data?.paused).toBe(false);
    await elapse(WATCH_MS);
    expect(fetchMonitor).toHaveBeenCalledTimes(6);
  });

  it('after "Check now", refreshes every 2 s for 20 s at most when no new check shows', async () => {
    current = { ...current, lastCheckedAt: '2026-11-28T12:25:00.000Z' };
    vi.mocked(checkMonitorNow).mockResolvedValue({ ok: true, status: 200, data: null } as ApiResult<never>);
    const { result } = renderHook(() => useLiveMonitor('m1'));
    await elapse(0);
    await act(() => result.current.checkNow(result.current.info.data!));
    expect(result.current.watching).toBe(true);
    await elapseTimes(10, WATCH_MS);
    expect(result.current.watching).toBe(false);
    // Back at the usual pace: none in the next 28 s.
    const calls = fetchMonitor.mock.calls.length;
    await elapseTimes(14, WATCH_MS);
    expect(fetchMonitor).toHaveBeenCalledTimes(calls);
  });
});
