import { Alert, Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type MonitorListItem, PROVIDER_OF_SERVICE } from '@vigil/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { IconAlertTriangle } from '../../../../components/icons.tsx';
import { ErrorState } from '../../../../components/page-states.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import { getMonitorInfo } from '../../api/get-monitor-info.ts';
import {
  accountLabel,
  connectionProblem,
  expiryWarning,
  PROVIDER_WORDS,
} from '../../connect/connection-format.ts';
import { ReconnectButton } from '../../connect/reconnect-button.tsx';
import { monitorDetailPath } from '../../paths.ts';

/** A monitor that watches an ad account through a connected Google or Facebook account. */
export type AdsMonitor = Extract<MonitorListItem, { service: 'google_ads' | 'facebook_ads' }>;

function reconnectLabel(monitor: AdsMonitor): string {
  return monitor.connection
    ? accountLabel(monitor.connection)
    : PROVIDER_WORDS[PROVIDER_OF_SERVICE[monitor.service]].yours;
}

/** A lost connection, or Meta's access ending soon, with Reconnect, under an ads monitor's row in the list. */
function AdsConnectionLine({ monitor }: { monitor: AdsMonitor }) {
  const problem = connectionProblem(PROVIDER_OF_SERVICE[monitor.service], monitor.connection);
  const warning = problem ? null : expiryWarning(monitor.connection);
  if (!problem && !warning) return null;
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" c={problem ? 'red.8' : 'yellow.9'} fw={600}>
        {problem ? 'Connection lost' : 'Access ends soon'}
      </Text>
      <Text size="sm" c="dimmed" style={{ flex: '1 1 160px' }}>
        {problem ? problem.reason : warning}
      </Text>
      <ReconnectButton
        service={monitor.service}
        label={reconnectLabel(monitor)}
        monitorId={monitor.monitorId}
        variant="light"
      />
    </Group>
  );
}

/** On an ads monitor's detail: a lost connection, or access ending within a week, with Reconnect. */
function AdsConnectionAlert({ monitor }: { monitor: AdsMonitor }) {
  const problem = connectionProblem(PROVIDER_OF_SERVICE[monitor.service], monitor.connection);
  const warning = problem ? null : expiryWarning(monitor.connection);
  const reconnect = (
    <ReconnectButton
      service={monitor.service}
      label={reconnectLabel(monitor)}
      monitorId={monitor.monitorId}
      size="sm"
    />
  );
  if (problem) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Connection lost" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {problem.reason} Until it is reconnected, this monitor cannot read the ad account and its checks
            wait.
          </Text>
          {reconnect}
        </Stack>
      </Alert>
    );
  }
  if (warning) {
    return (
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle />}
        title="Access ends soon"
        role="status"
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{warning}</Text>
          {reconnect}
        </Stack>
      </Alert>
    );
  }
  return null;
}

/** The website or Shopify monitor an ads monitor is linked to, with a link to it. */
function LinkedShopCard({ linkedMonitorId }: { linkedMonitorId: string | null }) {
  const linked = useRequest(linkedMonitorId ? `monitor:${linkedMonitorId}` : null, (signal) =>
    getMonitorInfo(linkedMonitorId ?? '', signal),
  );
  let body;
  if (!linkedMonitorId) {
    body = (
      <Text size="sm" c="dimmed">
        No shop linked. Link the website or Shopify monitor of the shop these ads lead to (edit this monitor),
        and while that shop cannot sell you get one alert with the money spent since, instead of several.
      </Text>
    );
  } else if (linked.data) {
    body = (
      <Text size="sm">
        <Anchor component={Link} to={monitorDetailPath(linkedMonitorId)} fw={600}>
          {linked.data.name}
        </Anchor>
        {linked.data.service === 'website' ? ` · ${linked.data.target.url}` : ''}
        {linked.data.service === 'shopify' ? ` · ${linked.data.target.shop}` : ''}
        <Text span c="dimmed" size="sm" display="block" mt={4}>
          While it has an open incident, this monitor sends one “ads are spending while the shop cannot sell”
          alert instead of the ad account’s own.
        </Text>
      </Text>
    );
  } else if (linked.status === 'failed') {
    body = (
      <ErrorState title="The linked monitor could not be loaded" onRetry={linked.reload}>
        It may have been deleted.{' '}
        <Anchor component={Link} to={monitorDetailPath(linkedMonitorId)}>
          Open it
        </Anchor>
      </ErrorState>
    );
  } else {
    body = <Skeleton h={20} w="60%" aria-label="Loading the linked monitor" />;
  }
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="linked-shop">
      <Title order={2} fz="lg" id="linked-shop" mb="md">
        Linked shop
      </Title>
      {body}
    </Card>
  );
}

/** An ads monitor's row in the list: what it watches in one line, and a connection that needs Reconnect. */
export function AdsTargetSummary({ monitor, summary }: { monitor: AdsMonitor; summary: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" truncate="end">
        {summary}
      </Text>
      <AdsConnectionLine monitor={monitor} />
    </Stack>
  );
}

/**
 * An ads monitor's detail: the connection's state with Reconnect, a card of what it watches (`children`,
 * under `title`), and the linked shop monitor.
 */
export function AdsTargetDetail({
  monitor,
  title,
  titleId,
  children,
}: {
  monitor: AdsMonitor;
  title: string;
  /** The card's heading id, its accessible name. */
  titleId: string;
  children: ReactNode;
}) {
  return (
    <>
      <AdsConnectionAlert monitor={monitor} />
      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={titleId}>
        <Title order={2} fz="lg" id={titleId} mb="md">
          {title}
        </Title>
        {children}
      </Card>
      <LinkedShopCard linkedMonitorId={monitor.target.linkedMonitorId} />
    </>
  );
}

/** One watched ad or ad set in a detail's list: its name, then where it sits ("· Campaign › Ad group"). */
export function WatchedItem({ name, where }: { name: string; where: string }) {
  return (
    <Text component="li" size="sm">
      <Text span fw={600} size="sm">
        {name}
      </Text>{' '}
      <Text span c="dimmed" size="sm">
        · {where}
      </Text>
    </Text>
  );
}
