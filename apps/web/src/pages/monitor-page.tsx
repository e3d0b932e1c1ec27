import { useCallback } from 'react';
import { Anchor, Button, Group } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { IconPlus } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { AlertList } from '../features/alerts/components/alert-list.tsx';
import { MonitorDetail } from '../features/monitors/components/monitor-detail.tsx';
import { MonitorList } from '../features/monitors/components/monitor-list.tsx';
import { pageFromQuery, parseQuery, stringifyQuery } from '../lib/query-string.ts';

function MonitorIncidents({ monitorId, lastCheckedAt }: { monitorId: string; lastCheckedAt: string | null }) {
  return (
    <>
      <AlertList
        query={{ page: 1, pageSize: 5, monitorId }}
        refreshKey={lastCheckedAt}
        linkMonitors={false}
        empty={{
          title: 'No incidents',
          text: 'When a check fails (after its confirmations), the incident and the alerts it sent show here.',
        }}
      />
      <Group justify="flex-end" mt="sm">
        <Anchor component={Link} to={`/alerts${stringifyQuery({ monitorId })}`} size="sm">
          All alerts of this monitor
        </Anchor>
      </Group>
    </>
  );
}

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
  if (monitorId) {
    return (
      <MonitorDetail
        key={monitorId}
        monitorId={monitorId}
        incidents={(lastCheckedAt) => (
          <MonitorIncidents monitorId={monitorId} lastCheckedAt={lastCheckedAt} />
        )}
      />
    );
  }

  return (
    <>
      <PageHeader
        title="Monitors"
        description="Each monitor watches a page of your site or your Shopify shop, and alerts you when it breaks."
        actions={
          <Button component={Link} to="/monitor_create" leftSection={<IconPlus />}>
            New monitor
          </Button>
        }
      />
      <MonitorList page={page} onPageChange={goToPage} />
    </>
  );
}
