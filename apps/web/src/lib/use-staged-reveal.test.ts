import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useStagedReveal } from './use-staged-reveal.ts';

// Animation frames run when the test says a frame is painted; timers are fake, so each step's task after the
// frame runs when the test lets it.
const frames = new Map<number, FrameRequestCallback>();
let nextFrame = 1;

function paintFrame() {
  const due = [...frames.values()];
  frames.clear();
  act(() => due.forEach((callback) => callback(performance.now())));
}

function runTasks() {
  act(() => vi.runOnlyPendingTimers());
}

describe('useStagedReveal', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      frames.set(nextFrame, callback);
      return nextFrame++;
    });
    vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  });
  afterEach(() => {
    frames.clear();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('shows one more step after each painted frame, up to the number of steps', () => {
    const { result } = renderHook(() => useStagedReveal(3));
    expect(result.current).toBe(0);
    for (const expected of [1, 2, 3]) {
      paintFrame();
      // The frame alone shows nothing new: the step waits for the task after it.
      expect(result.current).toBe(expected - 1);
      runTasks();
      expect(result.current).toBe(expected);
    }
    expect(frames.size).toBe(0);
    paintFrame();
    runTasks();
    expect(result.current).toBe(3);
  });

  it('waits until it is ready', () => {
    const { result, rerender } = renderHook(({ ready }) => useStagedReveal(2, ready), {
      initialProps: { ready: false },
    });
    paintFrame();
    runTasks();
    expect(result.current).toBe(0);
    expect(frames.size).toBe(0);
    rerender({ ready: true });
    paintFrame();
    runTasks();
    expect(result.current).toBe(1);
  });

  it('asks for no more frames once unmounted', () => {
    const { unmount } = renderHook(() => useStagedReveal(3));
    expect(frames.size).toBe(1);
    unmount();
    expect(frames.size).toBe(0);
  });
});
