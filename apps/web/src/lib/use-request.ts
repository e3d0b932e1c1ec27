import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from './api-client.ts';

export interface RequestState<T> {
  status: 'loading' | 'ready' | 'failed';
  /** The last data received; kept while a reload runs, so lists do not flash empty. */
  data: T | undefined;
  /** When `data` arrived (ms since the epoch); null before any did. */
  receivedAt: number | null;
  /** The last background refresh failed: `data` is what was shown before, kept as it was. */
  stale: boolean;
}

/**
 * Loads one answer. `background` is true for a refresh nobody asked for (`refresh`): its failure must not
 * interrupt the person with an error toast, so the api call is made `quiet`, and the state says `stale`.
 */
export type Load<T> = (signal: AbortSignal, background: boolean) => Promise<ApiResult<T>>;

/**
 * Loads `load`'s answer whenever `key` changes (or `reload` is called), cancelling the previous request.
 * Errors were already shown by the api client; this only records that the load failed. `initial`, asked once as
 * the component mounts, may give the first key's answer at once (one that came early: `api.peek`): the first render
 * then shows it, and it is not asked for again.
 */
export function useRequest<T>(key: string | null, load: Load<T>, initial?: () => T | undefined) {
  const [state, setState] = useState<RequestState<T>>(() => {
    const data = key === null ? undefined : initial?.();
    if (data !== undefined) return { status: 'ready', data, receivedAt: Date.now(), stale: false };
    return { status: key === null ? 'ready' : 'loading', data: undefined, receivedAt: null, stale: false };
  });
  const [attempt, setAttempt] = useState({ n: 0, quiet: false });
  const loadRef = useRef(load);
  loadRef.current = load;
  // The first render already had its answer: the mount's load is not made.
  const answeredOnMount = useRef(state.receivedAt !== null);

  useEffect(() => {
    if (key === null) return;
    if (answeredOnMount.current) {
      answeredOnMount.current = false;
      return;
    }
    const controller = new AbortController();
    // A quiet refresh keeps what is shown as it is (no busy state) until the new answer replaces it.
    if (!attempt.quiet) setState((previous) => ({ ...previous, status: 'loading', stale: false }));
    void loadRef.current(controller.signal, attempt.quiet).then((result) => {
      if (controller.signal.aborted) return;
      // An answer can redraw much of a page (a list of monitors, a chart, a table of checks): rendered as a
      // transition, in slices, rather than in one long task.
      startTransition(() =>
        setState((previous) => {
          if (result.ok) return { status: 'ready', data: result.data, receivedAt: Date.now(), stale: false };
          // A failed background refresh leaves what is shown (and its status) alone; it only turns stale.
          if (attempt.quiet && previous.data !== undefined) return { ...previous, stale: true };
          return { ...previous, status: 'failed' };
        }),
      );
    });
    return () => controller.abort();
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt(({ n }) => ({ n: n + 1, quiet: false })), []);
  /** Loads again in the background: for data kept fresh while a page is open. */
  const refresh = useCallback(() => setAttempt(({ n }) => ({ n: n + 1, quiet: true })), []);
  /** Replaces the data in place (after an action answered with the new version). */
  const update = useCallback(
    (change: (data: T) => T) =>
      setState((previous) =>
        previous.data === undefined ? previous : { ...previous, data: change(previous.data) },
      ),
    [],
  );
  return { ...state, reload, refresh, update };
}

/** How often open lists and pages refresh by themselves. */
export const REFRESH_MS = 30_000;

/** Calls `refresh` every `ms` while the tab is visible (a hidden tab asks the server for nothing). */
export function useRefreshEvery(refresh: () => void, ms = REFRESH_MS): void {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') refresh();
    }, ms);
    return () => clearInterval(timer);
  }, [refresh, ms]);
}
