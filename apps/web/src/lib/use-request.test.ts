import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from './api-client.ts';
import { useRequest, useRefreshEvery } from './use-request.ts';

describe('useRefreshEvery', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('refreshes on its own while the tab is visible, and stops when unmounted', () => {
    const refresh = vi.fn();
    const { unmount } = renderHook(() => useRefreshEvery(refresh, 30_000));
    vi.advanceTimersByTime(29_999);
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    unmount();
    vi.advanceTimersByTime(60_000);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('asks nothing while the tab is hidden', () => {
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const refresh = vi.fn();
    renderHook(() => useRefreshEvery(refresh, 1_000));
    vi.advanceTimersByTime(10_000);
    expect(refresh).not.toHaveBeenCalled();
  });
});

const ok = <T>(data: T): ApiResult<T> => ({ ok: true, status: 200, data });
const offline: ApiResult<never> = {
  ok: false,
  status: 0,
  data: undefined,
  code: 'NETWORK',
  message: 'unkow error',
};

describe('useRequest', () => {
  it('keeps what is shown when a background refresh fails, marks it stale, and clears that on the next answer', async () => {
    const answers = [ok(['first']), offline, ok(['second'])];
    const load = vi.fn(async (_signal: AbortSignal, _background: boolean) => answers.shift()!);
    const { result } = renderHook(() => useRequest('list', load));
    await waitFor(() => expect(result.current.data).toEqual(['first']));
    expect(result.current).toMatchObject({ status: 'ready', stale: false });
    expect(load).toHaveBeenLastCalledWith(expect.any(AbortSignal), false);
    const firstReceived = result.current.receivedAt;

    act(() => result.current.refresh());
    await waitFor(() => expect(result.current.stale).toBe(true));
    expect(load).toHaveBeenLastCalledWith(expect.any(AbortSignal), true);
    expect(result.current).toMatchObject({ status: 'ready', data: ['first'], receivedAt: firstReceived });

    act(() => result.current.refresh());
    await waitFor(() => expect(result.current.data).toEqual(['second']));
    expect(result.current.stale).toBe(false);
  });

  it('reports a failed load the person asked for as failed, not stale', async () => {
    const answers = [ok(1), offline];
    const { result } = renderHook(() => useRequest('one', async () => answers.shift()!));
    await waitFor(() => expect(result.current.data).toBe(1));
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.status).toBe('failed'));
    expect(result.current).toMatchObject({ data: 1, stale: false });
  });

  it('shows an answer that came early in its first render without asking again; reloads and new keys ask', async () => {
    const load = vi.fn(async (_signal: AbortSignal, _background: boolean) => ok('asked'));
    const initial = vi.fn(() => 'early');
    const { result, rerender } = renderHook(({ key }) => useRequest(key, load, initial), {
      initialProps: { key: 'a' },
    });
    expect(result.current).toMatchObject({ status: 'ready', data: 'early', stale: false });
    expect(result.current.receivedAt).not.toBeNull();
    await act(async () => {});
    expect(load).not.toHaveBeenCalled();
    expect(initial).toHaveBeenCalledTimes(1);

    act(() => result.current.reload());
    await waitFor(() => expect(result.current.data).toBe('asked'));
    expect(load).toHaveBeenCalledTimes(1);

    rerender({ key: 'b' });
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(initial).toHaveBeenCalledTimes(1);
  });

  it('loads as usual when nothing came early', async () => {
    const load = vi.fn(async () => ok('asked'));
    const { result } = renderHook(() => useRequest('a', load, () => undefined));
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.data).toBe('asked'));
    expect(load).toHaveBeenCalledTimes(1);
  });
});
