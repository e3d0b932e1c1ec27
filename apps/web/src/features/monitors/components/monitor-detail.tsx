import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Card, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { STATS_RANGES, type Monitor, type MonitorStatus, type StatsRange } from '@vigil/contracts';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconRefresh,
  IconTrash,
} from '../../../components/icons.tsx';
import { ErrorState, SectionSpinner, StaleNotice } from '../../../components/page-states.tsx';
import { SegmentedChoice } from '../../../components/segmented-choice.tsx';
import {
  formatDateTime,
  formatInterval,
  formatMs,
  formatPercent,
  formatRelativeTime,
} from '../../../lib/format-time.ts';
import { useRequest } from '../../../lib/use-request.ts';
import { useStagedReveal } from '../../../lib/use-staged-reveal.ts';
import { getMonitorStats } from '../api/get-monitor-stats.ts';
import { monitorEditPath } from '../paths.ts';
import { serviceDisplay } from '../services/display.ts';
import { summariseStats } from '../stats-summary.ts';
import { ConfirmDelete } from './confirm-delete.tsx';
import { ContactStatusCard } from './contact-status-card.tsx';
import { MonitorStatusBadge } from './monitor-status-badge.tsx';
import { RecentChecks } from './recent-checks.tsx';
import { ResponseTimeChart } from './response-time-chart.tsx';
import { useLiveMonitor } from './use-live-monitor.ts';
import { useMonitorActions } from './use-monitor-actions.ts';

/** A monitor of a service this app has no module for (a newer server): its name and status still show. */
const UNKNOWN_SERVICE = { TargetHeader: () => null, TargetDetail: undefined };

const RANGE_OPTIONS = STATS_RANGES.map((range) => ({
  value: range,
  label: { '24h': '24 hours', '7d': '7 days', '30d': '30 days' }[range],
}));

// The stats grow with the screen, from a phone's to a tablet's, in plain inline styles: Mantine's responsive props
// (and SimpleGrid) write a <style> element each, and adding stylesheets as the page renders makes the browser
// re-match the styles of the whole page.
const STATS_GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
  gap: 'clamp(10px, 2.8vw, 16px)',
};
const STAT_PADDING = { padding: 'clamp(12px, 2.8vw, 16px)' };
const STAT_VALUE = { fontSize: 'clamp(20px, 4.2vw, 24px)' };

/**
 * The sections below the header and uptime figures, in the order the page shows them, one a frame
 * (useStagedReveal): mounted whole, the style and layout after the page's first commit was one task of 50–110 ms
 * here, four times that on Lighthouse's phone.
 */
const SHOWN = { checks: 1, chart: 2, contacts: 3, incidents: 4 } as const;

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder radius="md" style={STAT_PADDING}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700} mt={4} style={STAT_VALUE}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}

function ResponseTimes({
  monitor,
  range,
  onRange,
  shown,
}: {
  monitor: Monitor;
  range: StatsRange;
  onRange: (range: StatsRange) => void;
  /** How many of the page's staged sections are shown (SHOWN). */
  shown: number;
}) {
  // Keyed on the last check too: a new check (Check now, or the schedule) shows in the numbers at once.
  const stats = useRequest(`stats:${monitor.monitorId}:${range}:${monitor.lastCheckedAt}`, (signal) =>
    getMonitorStats({ monitorId: monitor.monitorId, range }, signal),
  );
  const uptime = stats.data?.uptime;
  return (
    <>
      {/* Three small numbers side by side even on a phone, rather than three screen-wide cards. */}
      <div style={STATS_GRID}>
        <Stat label="Uptime, 24 hours" value={formatPercent(uptime?.['24h'] ?? monitor.uptime24h)} />
        <Stat label="Uptime, 7 days" value={formatPercent(uptime?.['7d'] ?? null)} />
        <Stat label="Uptime, 30 days" value={formatPercent(uptime?.['30d'] ?? null)} />
      </div>
      {shown >= SHOWN.checks && <RecentChecks monitor={monitor} />}
      {shown >= SHOWN.chart && (
        <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="response-times">
          <Group justify="space-between" mb="md" gap="sm">
            <Title order={2} fz="lg" id="response-times">
              Response time
            </Title>
            <SegmentedChoice
              label="Period"
              size="xs"
              choices={RANGE_OPTIONS}
              value={range}
              onChange={onRange}
            />
          </Group>
          {stats.data === undefined && stats.status === 'failed' ? (
            <ErrorState title="The response times could not be loaded" onRetry={stats.reload} />
          ) : stats.data === undefined || stats.data.range !== range ? (
            <Skeleton h={260} radius="md" aria-label="Loading response times" />
          ) : (
            <figure style={{ margin: 0 }}>
              <ResponseTimeChart stats={stats.data} intervalSeconds={monitor.intervalSeconds} />
              <Text component="figcaption" size="sm" c="dimmed" mt="sm">
                {summariseStats(stats.data)}
              </Text>
            </figure>
          )}
        </Card>
      )}
    </>
  );
}

/** What the last check's error means for each status (none while pending or paused). */
const LAST_ERROR: Partial<Record<MonitorStatus, { color: string; title: string; next?: string }>> = {
  down: { color: 'red', title: 'The last check failed' },
  confirming: {
    color: 'orange',
    title: 'The last check failed: checking again to confirm',
    next: 'A re-check runs within 30 seconds; the alert goes out if the failure is confirmed.',
  },
  up: { color: 'yellow', title: 'Part of the last check could not run' },
};

function LastCheckNotice({ monitor }: { monitor: Monitor }) {
  const notice = LAST_ERROR[monitor.status];
  if (!notice || !monitor.lastError) return null;
  return (
    <Alert color={notice.color} variant="light" icon={<IconAlertTriangle />} title={notice.title}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {monitor.lastError}
      </Text>
      {notice.next ? (
        <Text size="sm" mt={4}>
          {notice.next}
        </Text>
      ) : null}
    </Alert>
  );
}

/**
 * One monitor: its status and target, actions, uptime, response times, who gets its alerts and (from the page)
 * its incidents.
 */
export function MonitorDetail({
  monitorId,
  incidents,
}: {
  monitorId: string;
  /** The incidents section, given the monitor's last check so that it reloads when a new one shows. */
  incidents: (lastCheckedAt: string | null) => ReactNode;
}) {
  const navigate = useNavigate();
  const { info, checkNow, checking, watching } = useLiveMonitor(monitorId);
  const [range, setRange] = useState<StatsRange>('24h');
  const [confirming, setConfirming] = useState(false);
  const { running, run } = useMonitorActions();
  const shown = useStagedReveal(SHOWN.incidents, info.data !== undefined);

  const back = (
    <Anchor component={Link} to="/monitor" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} /> All monitors
      </Group>
    </Anchor>
  );

  const monitor = info.data;
  if (monitor === undefined) {
    return (
      <Stack gap="lg">
        {back}
        {info.status === 'failed' ? (
          <ErrorState title="This monitor could not be loaded" onRetry={info.reload}>
            It may have been deleted. Go back to all monitors, or try again.
          </ErrorState>
        ) : (
          <SectionSpinner label="Loading the monitor" />
        )}
      </Stack>
    );
  }

  const { TargetHeader, TargetDetail } = serviceDisplay(monitor.service) ?? UNKNOWN_SERVICE;

  async function toggle(current: Monitor) {
    if (await run(current.paused ? 'start' : 'pause', [current.monitorId])) info.reload();
  }

  async function remove(current: Monitor) {
    if (await run('delete', [current.monitorId])) void navigate('/monitor', { replace: true });
  }

  return (
    <Stack gap="lg">
      {back}
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="sm">
            <Title order={1} fz={28}>
              {monitor.name}
            </Title>
            <MonitorStatusBadge status={monitor.status} pauseReason={monitor.pauseReason} />
          </Group>
          <TargetHeader monitor={monitor} />
          <Text size="sm" c="dimmed">
            Checked every {formatInterval(monitor.intervalSeconds)}
            {monitor.lastCheckedAt
              ? ` · last check ${formatRelativeTime(monitor.lastCheckedAt)} (${formatDateTime(monitor.lastCheckedAt)})`
              : ' · not checked yet'}
            {monitor.lastResponseMs !== null ? ` · answered in ${formatMs(monitor.lastResponseMs)}` : ''}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={checking || watching}
            disabled={monitor.paused || running !== null}
            onClick={() => void checkNow(monitor)}
          >
            Check now
          </Button>
          <Button
            variant="default"
            leftSection={monitor.paused ? <IconPlayerPlay size={16} /> : <IconPlayerPause size={16} />}
            loading={running === 'pause' || running === 'start'}
            disabled={running !== null}
            onClick={() => void toggle(monitor)}
          >
            {monitor.paused ? 'Start' : 'Pause'}
          </Button>
          <Button
            variant="default"
            leftSection={<IconPencil size={16} />}
            component={Link}
            to={monitorEditPath(monitor.monitorId)}
          >
            Edit
          </Button>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} />}
            disabled={running !== null}
            onPointerEnter={ConfirmDelete.preload}
            onFocus={ConfirmDelete.preload}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        </Group>
      </Group>

      <StaleNotice stale={info.stale} receivedAt={info.receivedAt} />
      <LastCheckNotice monitor={monitor} />
      {monitor.pauseReason ? (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle />} title="Paused by your plan">
          <Stack gap={6} align="flex-start">
            <Text size="sm">{monitor.pauseReason}</Text>
            <Text size="sm">
              No checks run and no alerts go out for this monitor.{' '}
              <Anchor component={Link} to="/pricing" fw={600}>
                Compare plans
              </Anchor>
            </Text>
          </Stack>
        </Alert>
      ) : monitor.paused ? (
        <Alert color="yellow" variant="light" title="Paused">
          No checks run and no alerts go out until you start this monitor again.
        </Alert>
      ) : null}

      {TargetDetail ? <TargetDetail monitor={monitor} /> : null}

      <ResponseTimes monitor={monitor} range={range} onRange={setRange} shown={shown} />

      {shown >= SHOWN.contacts && <ContactStatusCard monitorId={monitor.monitorId} />}

      {shown >= SHOWN.incidents && (
        <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="monitor-incidents">
          <Title order={2} fz="lg" id="monitor-incidents" mb="md">
            Recent incidents
          </Title>
          {incidents(monitor.lastCheckedAt)}
        </Card>
      )}

      <ConfirmDelete
        opened={confirming}
        names={[monitor.name]}
        deleting={running === 'delete'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove(monitor)}
      />
    </Stack>
  );
}
