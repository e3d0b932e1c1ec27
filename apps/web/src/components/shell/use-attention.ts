import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { getMonitorSummary } from '../../features/monitors/api/get-monitor-summary.ts';
import { useRefreshEvery, useRequest } from '../../lib/use-request.ts';

export const APP_TITLE = 'Vigil';

/** The tab title: how many monitors are down, first, so a person sees it among their tabs. */
export function attentionTitle(down: number): string {
  return down > 0 ? `(${down} down) ${APP_TITLE}` : APP_TITLE;
}

/**
 * What needs attention across the account, kept fresh every 30 s and on each page change: the tab title
 * counts the monitors down, and the navbar's Alerts entry the open alerts.
 */
export function useAttention(): { openAlerts: number } {
  const { pathname } = useLocation();
  const summary = useRequest(`summary:${pathname}`, (signal) => getMonitorSummary(signal));
  useRefreshEvery(summary.refresh);
  const down = summary.data?.down ?? 0;
  useEffect(() => {
    document.title = attentionTitle(down);
    return () => {
      document.title = APP_TITLE;
    };
  }, [down]);
  return { openAlerts: summary.data?.openAlerts ?? 0 };
}
