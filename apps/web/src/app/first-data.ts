import { MONITOR_PAGE_SIZE } from '../features/monitors/paths.ts';
import { requestEarly } from '../lib/early-requests.ts';
import { getToken } from '../lib/cookies.ts';
import { accessOf, pageOf } from './route-match.ts';
import { ROUTES } from './route-table.ts';

/**
 * Asks for what the startup gate and the page at this address show first (`requestEarly`): the user, and the
 * monitor page's list or monitor. Only on a private page with a session (without one, it ends on the login page).
 * Run by the early script (src/early.ts) as soon as index.html is parsed, and again as the entry runs (router.tsx),
 * which asks only for what is not asked for already.
 */
export function requestFirstData(pathname: string, search: string): void {
  if (accessOf(pathname, ROUTES) === 'public' || !getToken()) return;
  requestEarly('/monitor-bff/user-info');
  if (pageOf(pathname, ROUTES) !== 'monitor') return;
  const query = new URLSearchParams(search);
  const monitorId = query.get('monitorId');
  if (monitorId) return requestEarly('/monitor-bff/monitor-info', { monitorId });
  const number = Number(query.get('page') ?? '1');
  requestEarly('/monitor-bff/monitor', {
    page: Number.isInteger(number) && number > 1 ? number : 1,
    pageSize: MONITOR_PAGE_SIZE,
  });
}
