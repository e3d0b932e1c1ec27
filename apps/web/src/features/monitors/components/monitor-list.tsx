import { useEffect, useState, type MouseEvent } from 'react';
import {
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  Pagination,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import type { MonitorListItem } from '@vigil/contracts';
import { CardList } from '../../../components/card-list.tsx';
import { HonestEmptyState } from '../../../components/honest-empty-state.tsx';
import {
  IconActivity,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconTrash,
} from '../../../components/icons.tsx';
import { ErrorState, StaleNotice } from '../../../components/page-states.tsx';
import { formatMs, formatPercent, formatRelativeTime, formatDateTime } from '../../../lib/format-time.ts';
import { useRefreshEvery, useRequest } from '../../../lib/use-request.ts';
import { useWiderThan } from '../../../lib/use-wider-than.ts';
import { MONITOR_PAGE_SIZE, getMonitors, peekMonitors } from '../api/get-monitors.ts';
import { monitorDetailPath } from '../paths.ts';
import { serviceDisplay } from '../services/display.ts';
import { ConfirmDelete } from './confirm-delete.tsx';
import { MonitorStatusBadge } from './monitor-status-badge.tsx';
import { useMonitorActions, type MonitorAction } from './use-monitor-actions.ts';

const COLUMNS = ['Status', 'Monitor', 'Last check', 'Uptime (24 h)', 'Response time'];

function LoadingTable() {
  return (
    <Paper withBorder radius="lg" p="md" aria-busy="true" aria-label="Loading monitors">
      <Stack gap="sm">
        {Array.from({ length: 5 }, (_, n) => (
          <Skeleton key={n} h={36} radius="sm" />
        ))}
      </Stack>
    </Paper>
  );
}

function TargetSummary({ monitor }: { monitor: MonitorListItem }) {
  const Summary = serviceDisplay(monitor.service)?.TargetSummary;
  return Summary ? <Summary monitor={monitor} /> : null;
}

/** The monitor list of one page: status, target, last check, uptime, response time; bulk actions. */
export function MonitorList({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const navigate = useNavigate();
  const monitors = useRequest(
    `monitors:${page}`,
    (signal, background) => getMonitors({ page, pageSize: MONITOR_PAGE_SIZE }, signal, background),
    () => peekMonitors({ page, pageSize: MONITOR_PAGE_SIZE }),
  );
  // Statuses and last checks stay current while the list is open.
  useRefreshEvery(monitors.refresh);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const { running, run } = useMonitorActions();
  // The table's six columns need about 720 px beside the navbar; narrower, the monitors are cards.
  const wide = useWiderThan('md');

  const { data } = monitors;
  const list = data?.list ?? [];
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MONITOR_PAGE_SIZE));

  // Selection belongs to one page of one answer: ids that left the list (another page, deleted) leave it.
  useEffect(() => {
    const ids = new Set(data?.list.map((monitor) => monitor.monitorId));
    setSelected((current) => current.filter((id) => ids.has(id)));
  }, [data]);
  // Deleting the last monitors of the last page leaves it empty: show the new last page.
  useEffect(() => {
    if (monitors.status === 'ready' && list.length === 0 && total > 0 && page > pages) onPageChange(pages);
  }, [monitors.status, list.length, total, page, pages, onPageChange]);

  if (monitors.data === undefined) {
    if (monitors.status === 'failed') {
      return (
        <ErrorState title="Your monitors could not be loaded" onRetry={monitors.reload}>
          Check your connection and try again.
        </ErrorState>
      );
    }
    return <LoadingTable />;
  }

  if (total === 0) {
    return (
      <HonestEmptyState
        icon={<IconActivity size={28} />}
        title="No monitors yet"
        actions={
          <Button component={Link} to="/monitor_create" leftSection={<IconPlus />}>
            Create your first monitor
          </Button>
        }
      >
        A monitor checks a page of your site or your Shopify shop on a schedule and alerts you the moment it
        breaks: an error page, a timeout, a broken checkout, a product out of stock, an expiring certificate.
      </HonestEmptyState>
    );
  }

  const allSelected = list.length > 0 && selected.length === list.length;
  const selectedMonitors = list.filter((monitor) => selected.includes(monitor.monitorId));

  function toggle(monitorId: string, on: boolean) {
    setSelected((ids) => (on ? [...ids, monitorId] : ids.filter((id) => id !== monitorId)));
  }

  async function act(action: MonitorAction) {
    const done = await run(action, selected);
    if (!done) return;
    setConfirming(false);
    setSelected([]);
    monitors.reload();
  }

  function openRow(event: MouseEvent<HTMLTableRowElement>, monitor: MonitorListItem) {
    // Clicks on the checkbox or the name link do their own thing.
    if ((event.target as HTMLElement).closest('input, a, button, label')) return;
    void navigate(monitorDetailPath(monitor.monitorId));
  }

  const from = (page - 1) * MONITOR_PAGE_SIZE + 1;
  const to = from + list.length - 1;
  const busy = monitors.status === 'loading';
  const caption = `Your monitors, ${from} to ${to} of ${total}`;
  const isSelected = (monitor: MonitorListItem) => selected.includes(monitor.monitorId);
  const selectAll = (
    <Checkbox
      aria-label="Select all monitors on this page"
      label={wide ? undefined : 'Select all'}
      checked={allSelected}
      indeterminate={selected.length > 0 && !allSelected}
      onChange={(event) =>
        setSelected(event.currentTarget.checked ? list.map((monitor) => monitor.monitorId) : [])
      }
    />
  );
  const selectOne = (monitor: MonitorListItem) => (
    <Checkbox
      aria-label={`Select ${monitor.name}`}
      checked={isSelected(monitor)}
      onChange={(event) => toggle(monitor.monitorId, event.currentTarget.checked)}
    />
  );
  const nameAndTarget = (monitor: MonitorListItem) => (
    <>
      <Anchor
        component={Link}
        to={monitorDetailPath(monitor.monitorId)}
        fw={600}
        style={{ overflowWrap: 'anywhere' }}
      >
        {monitor.name}
      </Anchor>
      <TargetSummary monitor={monitor} />
      {monitor.pauseReason ? (
        <Text size="xs" c="var(--vigil-color-warning-text)" mt={2}>
          {monitor.pauseReason}
        </Text>
      ) : null}
    </>
  );
  const lastCheck = (monitor: MonitorListItem) =>
    monitor.lastCheckedAt ? formatRelativeTime(monitor.lastCheckedAt) : 'Not checked yet';

  return (
    <Stack gap="md">
      <StaleNotice stale={monitors.stale} receivedAt={monitors.receivedAt} />
      {selected.length > 0 ? (
        <Paper withBorder radius="md" p="xs" px="md" role="region" aria-label="Selected monitors">
          <Group justify="space-between" gap="sm">
            <Text size="sm" fw={600}>
              {selected.length} selected
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                leftSection={<IconPlayerPause size={14} />}
                loading={running === 'pause'}
                disabled={running !== null}
                onClick={() => void act('pause')}
              >
                Pause
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconPlayerPlay size={14} />}
                loading={running === 'start'}
                disabled={running !== null}
                onClick={() => void act('start')}
              >
                Start
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconTrash size={14} />}
                disabled={running !== null}
                onPointerEnter={ConfirmDelete.preload}
                onFocus={ConfirmDelete.preload}
                onClick={() => setConfirming(true)}
              >
                Delete
              </Button>
              <Button size="xs" variant="subtle" color="gray" onClick={() => setSelected([])}>
                Clear selection
              </Button>
            </Group>
          </Group>
        </Paper>
      ) : null}

      {wide ? (
        <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
          <Table.ScrollContainer minWidth={720}>
            <Table highlightOnHover verticalSpacing="sm" aria-busy={busy}>
              <Table.Caption style={{ captionSide: 'top' }}>
                <VisuallyHidden>{caption}</VisuallyHidden>
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>{selectAll}</Table.Th>
                  {COLUMNS.map((column) => (
                    <Table.Th key={column}>{column}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: busy ? 0.6 : 1 }}>
                {list.map((monitor) => (
                  <Table.Tr
                    key={monitor.monitorId}
                    onClick={(event) => openRow(event, monitor)}
                    style={{ cursor: 'pointer' }}
                    bg={isSelected(monitor) ? 'var(--mantine-primary-color-light)' : undefined}
                  >
                    <Table.Td>{selectOne(monitor)}</Table.Td>
                    <Table.Td>
                      <MonitorStatusBadge status={monitor.status} pauseReason={monitor.pauseReason} />
                    </Table.Td>
                    <Table.Td maw={360}>{nameAndTarget(monitor)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" title={formatDateTime(monitor.lastCheckedAt)}>
                        {lastCheck(monitor)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatPercent(monitor.uptime24h)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatMs(monitor.lastResponseMs)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : (
        // Narrower than the table, each monitor is a card: name and status, then its three numbers.
        <Stack gap="sm">
          <Group px="md">{selectAll}</Group>
          <CardList label={caption} busy={busy}>
            {list.map((monitor) => (
              <Paper
                component="li"
                key={monitor.monitorId}
                withBorder
                radius="lg"
                p="md"
                bg={isSelected(monitor) ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  {selectOne(monitor)}
                  <Box style={{ flex: 1, minWidth: 0 }}>{nameAndTarget(monitor)}</Box>
                  <Box style={{ flex: 'none' }}>
                    <MonitorStatusBadge status={monitor.status} pauseReason={monitor.pauseReason} />
                  </Box>
                </Group>
                <SimpleGrid component="dl" cols={3} spacing="xs" mt="sm" mb={0} ml={32}>
                  {[
                    ['Last check', lastCheck(monitor)],
                    ['Uptime (24 h)', formatPercent(monitor.uptime24h)],
                    ['Response', formatMs(monitor.lastResponseMs)],
                  ].map(([term, value]) => (
                    <div key={term}>
                      <Text component="dt" size="xs" c="dimmed">
                        {term}
                      </Text>
                      <Text component="dd" size="sm" m={0}>
                        {value}
                      </Text>
                    </div>
                  ))}
                </SimpleGrid>
              </Paper>
            ))}
          </CardList>
        </Stack>
      )}

      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {from}–{to} of {total}
        </Text>
        {pages > 1 ? (
          <nav aria-label="Monitor pages">
            <Pagination
              total={pages}
              value={page}
              onChange={onPageChange}
              getControlProps={(control) => ({
                'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
              })}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            />
          </nav>
        ) : null}
      </Group>

      <ConfirmDelete
        opened={confirming}
        names={selectedMonitors.map((monitor) => monitor.name)}
        deleting={running === 'delete'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void act('delete')}
      />
    </Stack>
  );
}
