import { useCallback, useEffect, useState } from 'react';
import type { PlanOrder } from '@vigil/contracts';
import { getPlanOrder } from '../api/get-plan-order.ts';

/** While Stripe has not confirmed: ask every second for a minute, then every 10 s in the background. */
export const ORDER_POLL_MS = 1000;
export const ORDER_SLOW_POLL_MS = 10_000;
export const ORDER_CONFIRM_PATIENCE_MS = 60_000;

export type OrderView =
  /** No order in the address, or the server knows none of this person's by that id (404). */
  | { status: 'missing' }
  | { status: 'loading' }
  /** It could not be read (network, server error); the api client has said why. */
  | { status: 'failed' }
  | { status: 'ready'; order: PlanOrder };

/** Stripe may still confirm it: pending, and nothing has gone wrong with it yet. */
export function isAwaitingPayment(order: PlanOrder): boolean {
  return order.status === 'pending' && order.failure === null;
}

/**
 * Reads one order; with `poll`, reads it again while it awaits payment, so the page follows Stripe's
 * webhook. `waitedMs` is how long this page has waited (as of the last answer); `checkNow` asks at once.
 */
export function usePlanOrder(orderId: string | undefined, { poll }: { poll: boolean }) {
  const [view, setView] = useState<OrderView>(orderId ? { status: 'loading' } : { status: 'missing' });
  const [startedAt] = useState(() => Date.now());
  const [answeredAt, setAnsweredAt] = useState(startedAt);
  const [attempt, setAttempt] = useState(0);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    if (!orderId) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function read(id: string) {
      const result = await getPlanOrder(id, controller.signal);
      if (controller.signal.aborted) return;
      const now = Date.now();
      setAnsweredAt(now);
      setChecking(false);
      if (result.ok) setView({ status: 'ready', order: result.data });
      // A 401 has already left for /login; a 404 will not change by asking again.
      else if (result.status === 404 || result.status === 401) {
        setView({ status: 'missing' });
        return;
      }
      // While polling, a failed read keeps what was known; the next read may well succeed.
      else setView((previous) => (previous.status === 'ready' ? previous : { status: 'failed' }));
      if (!poll || (result.ok && !isAwaitingPayment(result.data))) return;
      // After a failure, wait longer, so a broken connection does not raise an error every second.
      const patient = result.ok && now - startedAt < ORDER_CONFIRM_PATIENCE_MS;
      timer = setTimeout(() => void read(id), patient ? ORDER_POLL_MS : ORDER_SLOW_POLL_MS);
    }

    void read(orderId);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [orderId, poll, attempt, startedAt]);

  const checkNow = useCallback(() => {
    setChecking(true);
    setView((previous) => (previous.status === 'failed' ? { status: 'loading' } : previous));
    setAttempt((n) => n + 1);
  }, []);

  return { view, waitedMs: answeredAt - startedAt, checkNow, checking };
}
