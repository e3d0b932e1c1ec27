import { useEffect, useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { Monitor } from '@vigil/contracts';
import { REFRESH_MS, useRefreshEvery, useRequest } from '../../../lib/use-request.ts';
import { checkMonitorNow } from '../api/check-monitor-now.ts';
import { getMonitorInfo, peekMonitorInfo } from '../api/get-monitor-info.ts';

/** How often an open monitor refreshes while a check is on its way (else every REFRESH_MS). */
export const WATCH_MS = 2_000;
const WATCH_FOR_MS = 20_000;
/** How long an open monitor that was never checked (one just created or started) waits for its first check. */
export const FIRST_CHECK_FOR_MS = 60_000;

/** A check on its way: one asked for with "Check now", or a never-checked monitor's first. */
interface Watch {
  /** The monitor's last check when the watch began: a different one ends it. */
  since: string | null;
  /** When it ends anyway (ms since the epoch). */
  until: number;
  /** Asked for with "Check now" (its button shows it as busy). */
  asked: boolean;
}

/**
 * One monitor, kept fresh: refreshed every 30 s, and every 2 s while a check is on its way, so a person sees the
 * result without reloading the page: after "Check now" until the new check shows (or 20 s pass), and while a
 * monitor that runs was never checked, until its first check shows (or a minute passes). A new monitor is
 * checked at once, but its page usually opens before that check is written. Its stats and incidents reload
 * when a new check shows (they key on `lastCheckedAt`).
 */
export function useLiveMonitor(monitorId: string) {
  const info = useRequest(
    `monitor:${monitorId}`,
    (signal, background) => getMonitorInfo(monitorId, signal, background),
    () => peekMonitorInfo(monitorId),
  );
  const [watch, setWatch] = useState<Watch | null>(null);
  const [checking, setChecking] = useState(false);
  const lastCheckedAt = info.data?.lastCheckedAt ?? null;
  const running = info.data?.paused === false;
  useRefreshEvery(info.refresh, watch ? WATCH_MS : REFRESH_MS);

  // A running monitor that was never checked waits for its first: as its page opens, and again when it is started.
  useEffect(() => {
    if (running && lastCheckedAt === null) {
      setWatch({ since: null, until: Date.now() + FIRST_CHECK_FOR_MS, asked: false });
    }
  }, [monitorId, running, lastCheckedAt]);

  // A watch ends when a new check shows, or when its time is up.
  useEffect(() => {
    if (!watch) return;
    if (lastCheckedAt !== watch.since) {
      setWatch(null);
      return;
    }
    const timer = setTimeout(() => setWatch(null), watch.until - Date.now());
    return () => clearTimeout(timer);
  }, [lastCheckedAt, watch]);

  async function checkNow(monitor: Monitor) {
    setChecking(true);
    const result = await checkMonitorNow(monitor.monitorId);
    setChecking(false);
    if (!result.ok) return;
    setWatch({ since: monitor.lastCheckedAt, until: Date.now() + WATCH_FOR_MS, asked: true });
    notifications.show({
      color: 'vigil',
      title: 'Checking now',
      message: 'The result shows here in a few seconds.',
    });
  }

  return { info, checkNow, checking, watching: watch?.asked === true };
}
