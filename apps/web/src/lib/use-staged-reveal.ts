import { startTransition, useEffect, useState } from 'react';

/**
 * How many of a page's sections to show: none at first, then one more each frame, up to `steps`, once `ready`.
 * A page that mounts whole leaves a phone one long task (its commit, then the style and layout of every
 * section); shown a section a frame, each of those tasks is a fraction as long, and the section on screen is
 * painted first. Each step waits for the frame that paints the one before it (an animation frame, then a task
 * after that frame), and renders in a transition, so input is handled in between.
 */
export function useStagedReveal(steps: number, ready = true): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (!ready || shown >= steps) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setShown((count) => Math.min(count + 1, steps))), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, shown, steps]);
  return shown;
}
