import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';
import { AlertList } from '../features/alerts/components/alert-list.tsx';
import { MonitorDetail } from '../features/monitors/components/monitor-detail.tsx';
import { stringifyQuery } from '../lib/query-string.ts';

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

/** /monitor?monitorId=…: one monitor, with its incidents. */
export default function MonitorDetailView({ monitorId }: { monitorId: string }) {
  return (
    <MonitorDetail
      monitorId={monitorId}
      incidents={(lastCheckedAt) => <MonitorIncidents monitorId={monitorId} lastCheckedAt={lastCheckedAt} />}
    />
  );
}
