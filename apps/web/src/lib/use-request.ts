import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from './api-client.ts';

export interface RequestState<T> {
  status: 'loading' | 'ready' | 'failed';
  /** The last data received; kept while a reload runs, so lists do not flash empty. */
  data: T | undefined;
}

/**
 * Loads `load`'s answer whenever `key` changes (or `reload` is called), cancelling the previous request.
 * Errors were already shown by the api client; this only records that the load failed.
 */
export function useRequest<T>(key: string | null, load: (signal: AbortSignal) => Promise<ApiResult<T>>) {
  const [state, setState] = useState<RequestState<T>>({
    status: key === null ? 'ready' : 'loading',
    data: undefined,
  });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState((previous) => ({ status: 'loading', data: previous.data }));
    void loadRef.current(controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setState((previous) =>
        result.ok ? { status: 'ready', data: result.data } : { status: 'failed', data: previous.data },
      );
    });
    return () => controller.abort();
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  /** Replaces the data in place (after an action answered with the new version). */
  const update = useCallback(
    (change: (data: T) => T) =>
      setState((previous) =>
        previous.data === undefined ? previous : { ...previous, data: change(previous.data) },
      ),
    [],
  );
  return { ...state, reload, update };
}
