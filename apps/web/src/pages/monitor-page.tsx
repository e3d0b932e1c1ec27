import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { pageFromQuery, parseQuery, stringifyQuery } from '../lib/query-string.ts';
import MonitorDetailView from './monitor-detail-view.tsx';
import MonitorListView from './monitor-list-view.tsx';

/**
 * /monitor lists the monitors; /monitor?monitorId=… shows one (the spec has no detail route, and this keeps
 * the detail linkable and the navbar's Monitors entry highlighted).
 */
export default function MonitorPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const query = parseQuery(search);
  const page = pageFromQuery(query.page);
  const goToPage = useCallback(
    (next: number) =>
      void navigate({ pathname: '/monitor', search: stringifyQuery({ page: next > 1 ? next : undefined }) }),
    [navigate],
  );

  const { monitorId } = query;
  if (monitorId) return <MonitorDetailView key={monitorId} monitorId={monitorId} />;
  return <MonitorListView page={page} onPageChange={goToPage} />;
}
