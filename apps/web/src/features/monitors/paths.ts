/** The app paths of monitors, for links and for coming back after connecting a shop. */
export const MONITOR_CREATE_PATH = '/monitor_create';

/** Monitors per page of the list. */
export const MONITOR_PAGE_SIZE = 20;

export function monitorDetailPath(monitorId: string): string {
  return `/monitor?monitorId=${encodeURIComponent(monitorId)}`;
}

export function monitorEditPath(monitorId: string): string {
  return `/monitor_edit?monitorId=${encodeURIComponent(monitorId)}`;
}
