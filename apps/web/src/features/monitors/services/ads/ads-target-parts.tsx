import { Alert, Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ConnectedService, Connection, Provider } from '@vigil/contracts';
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

interface AdsMonitorConnection {
  monitorId: string;
  provider: Provider;
  service: ConnectedService;
  connection: Connection | null;
}

function reconnectLabel({ provider, connection }: AdsMonitorConnection): string {
  return connection ? accountLabel(connection) : PROVIDER_WORDS[provider].yours;
}

/** A lost connection, or Meta's access ending soon, with Reconnect, under an ads monitor's row in the list. */
export function AdsConnectionLine(props: AdsMonitorConnection) {
  const problem = connectionProblem(props.provider, props.connection);
  const warning = problem ? null : expiryWarning(props.connection);
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
        service={props.service}
        label={reconnectLabel(props)}
        monitorId={props.monitorId}
        variant="light"
      />
    </Group>
  );
}

/** On an ads monitor's detail: a lost connection, or access ending within a week, with Reconnect. */
export function AdsConnectionAlert(props: AdsMonitorConnection) {
  const problem = connectionProblem(props.provider, props.connection);
  const warning = problem ? null : expiryWarning(props.connection);
  const reconnect = (
    <ReconnectButton
      service={props.service}
      label={reconnectLabel(props)}
      monitorId={props.monitorId}
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
export function LinkedShopCard({ linkedMonitorId }: { linkedMonitorId: string | null }) {
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
