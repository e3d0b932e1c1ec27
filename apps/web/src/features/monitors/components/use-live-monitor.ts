import { useEffect, useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { Monitor } from '@vigil/contracts';
import { REFRESH_MS, useRefreshEvery, useRequest } from '../../../lib/use-request.ts';
import { checkMonitorNow } from '../api/check-monitor-now.ts';
import { getMonitorInfo, peekMonitorInfo } from '../api/get-monitor-info.ts';

/** How often an open monitor refreshes while a check asked for is on its way (else every REFRESH_MS). */
export const WATCH_MS = 2_000;
const WATCH_FOR_MS = 20_000;

/**
 * One monitor, kept fresh: refreshed every 30 s, and every 2 s after "Check now" until the new check shows
 * (or 20 s pass), so a person sees the result without reloading the page. Its stats and incidents reload
 * when a new check shows (they key on `lastCheckedAt`).
 */
export function useLiveMonitor(monitorId: string) {
  const info = useRequest(
    `monitor:${monitorId}`,
    (signal, background) => getMonitorInfo(monitorId, signal, background),
    () => peekMonitorInfo(monitorId),
  );
  const [watching, setWatching] = useState<{ since: string | null; until: number } | null>(null);
  const [checking, setChecking] = useState(false);
  const lastCheckedAt = info.data?.lastCheckedAt ?? null;
  useRefreshEvery(info.refresh, watching ? WATCH_MS : REFRESH_MS);

  useEffect(() => {
    if (!watching) return;
    if (lastCheckedAt !== watching.since || Date.now() > watching.until) setWatching(null);
  }, [lastCheckedAt, watching]);

  async function checkNow(monitor: Monitor) {
    setChecking(true);
    const result = await checkMonitorNow(monitor.monitorId);
    setChecking(false);
    if (!result.ok) return;
    setWatching({ since: monitor.lastCheckedAt, until: Date.now() + WATCH_FOR_MS });
    notifications.show({
      color: 'vigil',
      title: 'Checking now',
      message: 'The result shows here in a few seconds.',
    });
  }

  return { info, checkNow, checking, watching: watching !== null };
}
