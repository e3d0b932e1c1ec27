import type { ReactNode } from 'react';
import { Box, Button, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Alert, Delivery, TimelineEvent } from '@vigil/contracts';
import {
  IconAlertTriangle,
  IconCheck,
  IconChevronDown,
  IconCircle,
  IconCircleCheck,
  IconCircleX,
  IconMail,
  IconMessage,
  IconPhone,
  IconPlayerPause,
} from '../../../components/icons.tsx';
import { ErrorState } from '../../../components/page-states.tsx';
import { formatDateTimeSeconds } from '../../../lib/format-time.ts';
import { useRefreshEvery, useRequest } from '../../../lib/use-request.ts';
import { getIncidentTimeline } from '../api/get-incident-timeline.ts';
import { deliveryStatusLabel } from './delivery-status.tsx';

const CHANNEL_NAMES: Record<Delivery['channel'], string> = { email: 'Email', sms: 'SMS', call: 'Call' };
const CHANNEL_ICONS: Record<Delivery['channel'], ReactNode> = {
  email: <IconMail size={14} />,
  sms: <IconMessage size={14} />,
  call: <IconPhone size={14} />,
};

/** Statuses whose `lastError` says why the person was not reached (or, while pending, why it waits again). */
const EXPLAINED: readonly Delivery['status'][] = ['pending', 'failed', 'skipped', 'unanswered'];
const NOT_REACHED: readonly Delivery['status'][] = ['failed', 'skipped', 'unanswered'];

const FALLBACK_FOR: Record<NonNullable<Delivery['fallbackFor']>, string> = {
  call: 'the unanswered call',
  sms: 'the undelivered SMS',
};

/** 'opened' → 'Alert', 'repeat-2' → 'Repeat alert 2', 'resolved' → 'Recovery notice'. */
function messageOf(event: string): string {
  if (event === 'opened') return 'Alert';
  if (event === 'resolved') return 'Recovery notice';
  const repeat = /^repeat-(\d+)$/.exec(event);
  return repeat ? `Repeat alert ${repeat[1]}` : 'Alert';
}

function When({ at }: { at: string }) {
  return (
    <Text size="xs" c="dimmed">
      <time dateTime={at}>{formatDateTimeSeconds(at)}</time>
    </Text>
  );
}

interface Entry {
  color: string;
  icon: ReactNode;
  title: ReactNode;
  details?: ReactNode;
}

/** What one moment says, in words a screen reader reads as a sentence; the icon and colour only repeat it. */
function entryOf(event: TimelineEvent): Entry {
  switch (event.kind) {
    case 'check-failed':
      return {
        color: 'red',
        icon: <IconCircleX size={14} />,
        title: event.statusCode !== null ? `Check failed (HTTP ${event.statusCode})` : 'Check failed',
        details: event.error,
      };
    case 'more-failures':
      return {
        color: 'red',
        icon: <IconCircleX size={14} />,
        title: `… ${event.count} more failed ${event.count === 1 ? 'check' : 'checks'}`,
        details: `Between ${formatDateTimeSeconds(event.at)} and ${formatDateTimeSeconds(event.until)}`,
      };
    case 'opened':
      return {
        color: 'red',
        icon: <IconAlertTriangle size={14} />,
        title: 'Incident opened',
        details: event.summary,
      };
    case 'delivery': {
      const reason = EXPLAINED.includes(event.status) ? event.lastError : null;
      return {
        color: NOT_REACHED.includes(event.status) ? 'orange' : 'blue',
        icon: CHANNEL_ICONS[event.channel],
        title: `${messageOf(event.event)} by ${CHANNEL_NAMES[event.channel]} to ${event.recipient}: ${deliveryStatusLabel(event)}`,
        details:
          event.fallbackFor || reason || event.failedTries.length > 0 ? (
            <>
              {event.fallbackFor ? (
                <Text size="sm">
                  {CHANNEL_NAMES[event.channel]} instead of {FALLBACK_FOR[event.fallbackFor]}
                </Text>
              ) : null}
              {reason ? <Text size="sm">{reason}</Text> : null}
              {event.failedTries.map((attempt) => (
                <Text size="sm" c="dimmed" key={attempt.at}>
                  Try at {formatDateTimeSeconds(attempt.at)} did not get through: {attempt.error}
                </Text>
              ))}
            </>
          ) : null,
      };
    }
    case 'acknowledged':
      return {
        color: 'teal',
        icon: <IconCheck size={14} />,
        title: 'Acknowledged: no more repeat alerts',
        details: event.byCallTo ? `By pressing 1 on the call to ${event.byCallTo}` : null,
      };
    case 'resolved':
      if (event.by === 'person') {
        return {
          color: 'green',
          icon: <IconCircleCheck size={14} />,
          title: 'Resolved by hand',
          details: event.note ? `Note: ${event.note}` : null,
        };
      }
      if (event.by === 'pause') {
        return {
          color: 'gray',
          icon: <IconPlayerPause size={14} />,
          title: 'Ended when the monitor was paused',
        };
      }
      return { color: 'green', icon: <IconCircleCheck size={14} />, title: 'Recovered: a check passed' };
  }
}

function Item({ entry, at, last }: { entry: Entry; at: string | null; last: boolean }) {
  return (
    <Box component="li" style={{ display: 'flex', gap: 'var(--mantine-spacing-sm)' }}>
      <Box
        style={{ flex: 'none', display: 'flex', flexDirection: 'column', alignItems: 'center' }}
        aria-hidden="true"
      >
        <ThemeIcon size={24} radius="xl" variant="light" color={entry.color}>
          {entry.icon}
        </ThemeIcon>
        {last ? null : (
          <Box style={{ flex: 1, width: 2, minHeight: 8, background: 'var(--mantine-color-gray-3)' }} />
        )}
      </Box>
      <Stack gap={2} pb={last ? 0 : 'sm'} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        <Text size="sm" fw={600}>
          {entry.title}
        </Text>
        {at ? <When at={at} /> : null}
        {typeof entry.details === 'string' ? <Text size="sm">{entry.details}</Text> : entry.details}
      </Stack>
    </Box>
  );
}

/** How an incident not yet ended stands now: the last line of its timeline. */
function standing(state: Alert['state']): Entry | null {
  if (state === 'open') return { color: 'red', icon: <IconCircle size={14} />, title: 'Still open' };
  if (state === 'acknowledged') {
    return { color: 'orange', icon: <IconCircle size={14} />, title: 'Acknowledged, still failing' };
  }
  return null;
}

/** The timeline itself, loaded when shown and kept fresh like the alert list around it. */
function TimelineBody({ alert }: { alert: Alert }) {
  // The alert changing (a new delivery, acknowledged, resolved) loads the timeline again.
  const key = JSON.stringify([
    alert.incidentId,
    alert.state,
    alert.alertCount,
    alert.deliveries.map((delivery) => delivery.status),
  ]);
  const timeline = useRequest(key, (signal, background) =>
    getIncidentTimeline(alert.incidentId, signal, background),
  );
  useRefreshEvery(timeline.refresh);
  const { data } = timeline;
  if (data === undefined) {
    if (timeline.status === 'failed') {
      return (
        <ErrorState title="The timeline could not be loaded" onRetry={timeline.reload}>
          Check your connection and try again.
        </ErrorState>
      );
    }
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading the timeline">
        {Array.from({ length: 3 }, (_, n) => (
          <Skeleton key={n} h={32} radius="sm" />
        ))}
      </Stack>
    );
  }
  const end = standing(data.state);
  const entries: { entry: Entry; at: string | null }[] = data.events.map((event) => ({
    entry: entryOf(event),
    // The hidden failures' span is said in the entry's own words.
    at: event.kind === 'more-failures' ? null : event.at,
  }));
  if (end) entries.push({ entry: end, at: null });
  return (
    <Stack gap="xs">
      {data.checksKeptFrom ? (
        <Text size="sm" c="dimmed">
          Checks from before {formatDateTimeSeconds(data.checksKeptFrom)} are no longer kept, so failures
          before then are not listed.
        </Text>
      ) : null}
      <Box
        component="ol"
        m={0}
        p={0}
        aria-label={`Timeline of ${alert.conditionLabel} on ${alert.monitorName}`}
        aria-busy={timeline.status === 'loading'}
        style={{ listStyle: 'none' }}
      >
        {entries.map(({ entry, at }, index) => (
          <Item key={index} entry={entry} at={at} last={index === entries.length - 1} />
        ))}
      </Box>
    </Stack>
  );
}

interface IncidentTimelineProps {
  alert: Alert;
  open: boolean;
  onToggle: () => void;
}

/** The "Timeline" disclosure button of one alert. */
export function TimelineToggle({ alert, open, onToggle }: IncidentTimelineProps) {
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      px={4}
      aria-expanded={open}
      aria-controls={timelineId(alert)}
      aria-label={`Timeline of ${alert.conditionLabel} on ${alert.monitorName}`}
      onClick={onToggle}
      rightSection={
        <IconChevronDown
          size={14}
          style={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform 150ms' }}
        />
      }
    >
      Timeline
    </Button>
  );
}

export const timelineId = (alert: Alert) => `timeline-${alert.incidentId}`;

/** The revealed timeline of one alert, rendered only while open (so it loads when opened). */
export function IncidentTimeline({ alert }: { alert: Alert }) {
  return (
    <Box id={timelineId(alert)} pt={4}>
      <TimelineBody alert={alert} />
    </Box>
  );
}

/** The disclosure and what it reveals, stacked: for the alert cards. */
export function IncidentTimelineDisclosure({ alert, open, onToggle }: IncidentTimelineProps) {
  return (
    <Stack gap={4}>
      <Group>
        <TimelineToggle alert={alert} open={open} onToggle={onToggle} />
      </Group>
      {open ? <IncidentTimeline alert={alert} /> : null}
    </Stack>
  );
}
