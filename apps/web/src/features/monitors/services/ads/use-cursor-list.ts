import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../../../../lib/api-client.ts';
import type { CursorPage } from '../../api/get-facebook-accounts.ts';

export interface CursorList<T> {
  /** Every item of the pages loaded so far, in order. */
  items: T[];
  /** Loading the first page, or the next one. */
  status: 'loading' | 'ready' | 'failed';
  /** Whether a further page exists (the last page answered a cursor). */
  hasMore: boolean;
  /** Whether at least one page has arrived. */
  loaded: boolean;
  loadMore: () => void;
  /** Loads again the page that failed (the first, or the next). */
  retry: () => void;
}

/**
 * A list read a page at a time by cursor (`after`), with "Load more": the pages loaded so far stay shown, and
 * a failed page is retried without losing them. Starts again whenever `key` changes.
 */
export function useCursorList<T>(
  key: string | null,
  load: (after: string | undefined, signal: AbortSignal) => Promise<ApiResult<CursorPage<T>>>,
): CursorList<T> {
  const [state, setState] = useState<{
    key: string | null;
    items: T[];
    next: string | null;
    loaded: boolean;
  }>({ key, items: [], next: null, loaded: false });
  // Which page to load: the first (undefined), or the one after this cursor; bumped to retry.
  const [request, setRequest] = useState<{ key: string | null; after: string | undefined; attempt: number }>({
    key,
    after: undefined,
    attempt: 0,
  });
  const [status, setStatus] = useState<CursorList<T>['status']>(key === null ? 'ready' : 'loading');
  const loadRef = useRef(load);
  loadRef.current = load;

  const current = request.key === key ? request : { key, after: undefined, attempt: 0 };
  const shown = state.key === key ? state : { key, items: [], next: null, loaded: false };

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setStatus('loading');
    void loadRef.current(current.after, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if (!result.ok) {
        setStatus('failed');
        return;
      }
      setState((previous) => ({
        key,
        items: [...(previous.key === key && current.after ? previous.items : []), ...result.data.list],
        next: result.data.paging.after,
        loaded: true,
      }));
      setStatus('ready');
    });
    return () => controller.abort();
  }, [key, current.after, current.attempt]);

  const next = shown.next;
  const loadMore = useCallback(() => {
    if (next) setRequest({ key, after: next, attempt: 0 });
  }, [key, next]);
  const retry = useCallback(
    () => setRequest({ key, after: current.after, attempt: current.attempt + 1 }),
    [key, current.after, current.attempt],
  );

  return {
    items: shown.items,
    status: key === null ? 'ready' : status,
    hasMore: shown.next !== null,
    loaded: shown.loaded,
    loadMore,
    retry,
  };
}
