import { lazyPage } from '../app/lazy-page.tsx';

/**
 * The monitor page's two views, each its own chunk: the list loads none of the detail's chart, checks and
 * incidents, the detail none of the list. The router preloads the one a first load opens, beside the page.
 */
export const MonitorListView = lazyPage<{ page: number; onPageChange: (page: number) => void }>(
  () => import('./monitor-list-view.tsx'),
);
export const MonitorDetailView = lazyPage<{ monitorId: string }>(() => import('./monitor-detail-view.tsx'));
