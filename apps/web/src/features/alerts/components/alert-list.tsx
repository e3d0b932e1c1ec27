import { useState } from 'react';
import {
  Anchor,
  Button,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import type { Alert } from '@vigil/contracts';
import { HonestEmptyState } from '../../../components/honest-empty-state.tsx';
import { IconBell } from '../../../components/icons.tsx';
import { ErrorState } from '../../../components/page-states.tsx';
import { formatDateTime } from '../../../lib/format-time.ts';
import { useRequest } from '../../../lib/use-request.ts';
import { acknowledgeAlert } from '../api/acknowledge-alert.ts';
import { getAlerts, type AlertQuery } from '../api/get-alerts.ts';
import { AlertStateBadge } from './alert-state-badge.tsx';
import { DeliveryStatus } from './delivery-status.tsx';

function Times({ alert }: { alert: Alert }) {
  const rows: [string, string | null][] = [
    ['Opened', alert.openedAt],
    ['Acknowledged', alert.acknowledgedAt],
    ['Resolved', alert.resolvedAt],
  ];
  return (
    <Stack gap={2}>
      {rows
        .filter(([, at]) => at !== null)
        .map(([label, at]) => (
          <Text size="sm" key={label}>
            <Text span c="dimmed" size="sm">
              {label}{' '}
            </Text>
            {formatDateTime(at)}
          </Text>
        ))}
    </Stack>
  );
}

interface AlertListProps {
  query: AlertQuery;
  onPageChange?: (page: number) => void;
  /** Shown when there is nothing to list. */
  empty: { title: string; text: string };
  /** Links each alert's monitor to its detail (off on the monitor's own detail). */
  linkMonitors?: boolean;
}

/** Alerts newest first, with their times, state, per-channel delivery and an Acknowledge for open ones. */
export function AlertList({ query, onPageChange, empty, linkMonitors = true }: AlertListProps) {
  const alerts = useRequest(JSON.stringify(query), (signal) => getAlerts(query, signal));
  const [acknowledging, setAcknowledging] = useState<string | null>(null);

  async function acknowledge(alert: Alert) {
    setAcknowledging(alert.incidentId);
    const result = await acknowledgeAlert(alert.incidentId);
    setAcknowledging(null);
    if (!result.ok) return;
    alerts.update((page) => ({
      ...page,
      list: page.list.map((item) => (item.incidentId === result.data.incidentId ? result.data : item)),
    }));
    notifications.show({
      color: 'vigil',
      title: 'Alert acknowledged',
      message: `No more repeat alerts for “${alert.conditionLabel}” on ${alert.monitorName}. You still get the recovery notice.`,
    });
  }

  const { data } = alerts;
  if (data === undefined) {
    if (alerts.status === 'failed') {
      return (
        <ErrorState title="The alerts could not be loaded" onRetry={alerts.reload}>
          Check your connection and try again.
        </ErrorState>
      );
    }
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading alerts">
        {Array.from({ length: 3 }, (_, n) => (
          <Skeleton key={n} h={56} radius="sm" />
        ))}
      </Stack>
    );
  }

  if (data.list.length === 0 && data.page <= 1) {
    return (
      <HonestEmptyState icon={<IconBell size={28} />} title={empty.title}>
        {empty.text}
      </HonestEmptyState>
    );
  }

  const pages = Math.max(1, Math.ceil(data.total / query.pageSize));
  return (
    <Stack gap="md">
      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        <Table.ScrollContainer minWidth={860}>
          <Table verticalSpacing="sm" aria-busy={alerts.status === 'loading'}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>State</Table.Th>
                <Table.Th>Alert</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>Delivery</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: alerts.status === 'loading' ? 0.6 : 1 }}>
              {data.list.map((alert) => (
                <Table.Tr key={alert.incidentId}>
                  <Table.Td>
                    <AlertStateBadge state={alert.state} />
                  </Table.Td>
                  <Table.Td maw={380}>
                    {linkMonitors ? (
                      <Anchor
                        component={Link}
                        to={`/monitor?monitorId=${encodeURIComponent(alert.monitorId)}`}
                        fw={600}
                      >
                        {alert.monitorName}
                      </Anchor>
                    ) : null}
                    <Text size="sm" fw={linkMonitors ? 400 : 600}>
                      {alert.conditionLabel}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {alert.summary}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Times alert={alert} />
                  </Table.Td>
                  <Table.Td>
                    <DeliveryStatus deliveries={alert.deliveries} />
                  </Table.Td>
                  <Table.Td>
                    {alert.state === 'open' ? (
                      <Button
                        size="xs"
                        variant="light"
                        loading={acknowledging === alert.incidentId}
                        disabled={acknowledging !== null && acknowledging !== alert.incidentId}
                        onClick={() => void acknowledge(alert)}
                        aria-label={`Acknowledge ${alert.conditionLabel} on ${alert.monitorName}`}
                      >
                        Acknowledge
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {onPageChange && pages > 1 ? (
        <Group justify="flex-end">
          <nav aria-label="Alert pages">
            <Pagination
              total={pages}
              value={query.page}
              onChange={onPageChange}
              getControlProps={(control) => ({
                'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
              })}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            />
          </nav>
        </Group>
      ) : null}
    </Stack>
  );
}
