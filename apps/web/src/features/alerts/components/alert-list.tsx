import { Fragment, useState } from 'react';
import {
  Anchor,
  Box,
  Button,
  Group,
  type ButtonProps,
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
import { CardList } from '../../../components/card-list.tsx';
import { HonestEmptyState } from '../../../components/honest-empty-state.tsx';
import { IconBell } from '../../../components/icons.tsx';
import { ErrorState, StaleNotice } from '../../../components/page-states.tsx';
import { formatDateTime } from '../../../lib/format-time.ts';
import { useRefreshEvery, useRequest } from '../../../lib/use-request.ts';
import { useWiderThan } from '../../../lib/use-wider-than.ts';
import { acknowledgeAlert } from '../api/acknowledge-alert.ts';
import { getAlerts, type AlertQuery } from '../api/get-alerts.ts';
import { AlertStateBadge } from './alert-state-badge.tsx';
import { DeliveryStatus } from './delivery-status.tsx';
import { IncidentTimeline, IncidentTimelineDisclosure, TimelineToggle } from './incident-timeline.tsx';
import { ResolveAlert } from './resolve-alert.tsx';

/** How a resolved alert ended, in words. */
function resolutionOf(alert: Alert): string | null {
  if (alert.resolvedBy === 'person') {
    return alert.resolutionNote ? `Resolved by hand: ${alert.resolutionNote}` : 'Resolved by hand';
  }
  if (alert.resolvedBy === 'pause') return 'Ended when the monitor was paused';
  return null;
}

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
      {resolutionOf(alert) ? (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {resolutionOf(alert)}
        </Text>
      ) : null}
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
  /** Loads the list again when it changes (a monitor's detail passes its last check). */
  refreshKey?: string | null;
}

/** Alerts newest first, with their times, state, per-channel delivery and an Acknowledge for open ones. */
export function AlertList({ query, onPageChange, empty, linkMonitors = true, refreshKey }: AlertListProps) {
  const alerts = useRequest(JSON.stringify({ query, refreshKey }), (signal, background) =>
    getAlerts(query, signal, background),
  );
  // New alerts and their deliveries show while the page stays open.
  useRefreshEvery(alerts.refresh);
  const [acknowledging, setAcknowledging] = useState<string | null>(null);
  const [resolving, setResolving] = useState<Alert | null>(null);
  // Alerts whose timeline is shown (each loads when opened).
  const [timelines, setTimelines] = useState<ReadonlySet<string>>(new Set());
  const toggleTimeline = (incidentId: string) =>
    setTimelines((shown) => {
      const next = new Set(shown);
      if (!next.delete(incidentId)) next.add(incidentId);
      return next;
    });
  // The table's five columns need about 860 px; narrower, the alerts are cards.
  const wide = useWiderThan('lg');

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

  function resolved(alert: Alert) {
    setResolving(null);
    alerts.update((page) => ({
      ...page,
      list: page.list.map((item) => (item.incidentId === alert.incidentId ? alert : item)),
    }));
    notifications.show({
      color: 'vigil',
      title: 'Alert resolved',
      message: `“${alert.conditionLabel}” on ${alert.monitorName} is resolved.`,
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
  const busy = alerts.status === 'loading';
  const monitorLink = (alert: Alert) =>
    linkMonitors ? (
      <Anchor
        component={Link}
        to={`/monitor?monitorId=${encodeURIComponent(alert.monitorId)}`}
        fw={600}
        style={{ overflowWrap: 'anywhere' }}
      >
        {alert.monitorName}
      </Anchor>
    ) : null;
  const acknowledgeButton = (alert: Alert, props: ButtonProps = {}) =>
    alert.state === 'open' ? (
      <Button
        variant="light"
        {...props}
        loading={acknowledging === alert.incidentId}
        disabled={acknowledging !== null && acknowledging !== alert.incidentId}
        onClick={() => void acknowledge(alert)}
        aria-label={`Acknowledge ${alert.conditionLabel} on ${alert.monitorName}`}
      >
        Acknowledge
      </Button>
    ) : null;
  const resolveButton = (alert: Alert, props: ButtonProps = {}) =>
    alert.state !== 'resolved' ? (
      <Button
        variant="default"
        {...props}
        disabled={acknowledging !== null}
        onPointerEnter={ResolveAlert.preload}
        onFocus={ResolveAlert.preload}
        onClick={() => setResolving(alert)}
        aria-label={`Resolve ${alert.conditionLabel} on ${alert.monitorName}`}
      >
        Resolve
      </Button>
    ) : null;
  return (
    <Stack gap="md">
      <StaleNotice stale={alerts.stale} receivedAt={alerts.receivedAt} />
      <ResolveAlert alert={resolving} onClose={() => setResolving(null)} onResolved={resolved} />
      {wide ? (
        <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
          <Table.ScrollContainer minWidth={860}>
            <Table verticalSpacing="sm" aria-busy={busy}>
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
              <Table.Tbody style={{ opacity: busy ? 0.6 : 1 }}>
                {data.list.map((alert) => (
                  <Fragment key={alert.incidentId}>
                    <Table.Tr>
                      <Table.Td>
                        <AlertStateBadge state={alert.state} />
                      </Table.Td>
                      <Table.Td maw={380}>
                        {monitorLink(alert)}
                        <Text size="sm" fw={linkMonitors ? 400 : 600}>
                          {alert.conditionLabel}
                        </Text>
                        <Text size="sm" c="dimmed">
                          {alert.summary}
                        </Text>
                        <TimelineToggle
                          alert={alert}
                          open={timelines.has(alert.incidentId)}
                          onToggle={() => toggleTimeline(alert.incidentId)}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Times alert={alert} />
                      </Table.Td>
                      <Table.Td>
                        <DeliveryStatus deliveries={alert.deliveries} />
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={6} align="flex-start">
                          {acknowledgeButton(alert, { size: 'xs' })}
                          {resolveButton(alert, { size: 'xs' })}
                        </Stack>
                      </Table.Td>
                    </Table.Tr>
                    {timelines.has(alert.incidentId) ? (
                      <Table.Tr>
                        <Table.Td colSpan={5}>
                          <IncidentTimeline alert={alert} />
                        </Table.Td>
                      </Table.Tr>
                    ) : null}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : (
        // On a phone each alert is a card: what broke and Acknowledge first, then when and who was told.
        <CardList label="Alerts" busy={busy}>
          {data.list.map((alert) => (
            <Paper component="li" withBorder radius="lg" p="md" key={alert.incidentId}>
              <Stack gap="sm">
                <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    {monitorLink(alert)}
                    <Text size="sm" fw={linkMonitors ? 400 : 600}>
                      {alert.conditionLabel}
                    </Text>
                  </Stack>
                  <Box style={{ flex: 'none' }}>
                    <AlertStateBadge state={alert.state} />
                  </Box>
                </Group>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {alert.summary}
                </Text>
                {acknowledgeButton(alert, { size: 'md', fullWidth: true })}
                {resolveButton(alert, { size: 'md', fullWidth: true })}
                <Times alert={alert} />
                <DeliveryStatus deliveries={alert.deliveries} />
                <IncidentTimelineDisclosure
                  alert={alert}
                  open={timelines.has(alert.incidentId)}
                  onToggle={() => toggleTimeline(alert.incidentId)}
                />
              </Stack>
            </Paper>
          ))}
        </CardList>
      )}
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
