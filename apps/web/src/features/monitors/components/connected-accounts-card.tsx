import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { PROVIDERS, type Connection, type Provider } from '@vigil/contracts';
import { IconAlertTriangle, IconPlus } from '../../../components/icons.tsx';
import { ErrorState } from '../../../components/page-states.tsx';
import { useRequest } from '../../../lib/use-request.ts';
import { disconnectConnection } from '../api/disconnect-connection.ts';
import { getConnections } from '../api/get-connections.ts';
import {
  accountLabel,
  expiryWarning,
  PROVIDER_WORDS,
  SERVICE_OF_PROVIDER,
} from '../connect/connection-format.ts';
import { ReconnectButton } from '../connect/reconnect-button.tsx';
import { MONITOR_CREATE_PATH } from '../paths.ts';
import { ConnectionSummary, monitorsUsing } from './connection-summary.tsx';

/** How to take Vigil's access away on the provider's side too. */
const REVOKE_HINTS: Record<Provider, string> = {
  shopify: 'To remove Vigil from the shop entirely, also uninstall the app in your Shopify admin.',
  google:
    'To remove Vigil’s access entirely, also remove it under “Third-party apps & services” in your Google Account.',
  meta: 'To remove Vigil’s access entirely, also remove it under “Business integrations” in your Facebook settings.',
};

function ConfirmDisconnect({
  connection,
  disconnecting,
  onCancel,
  onConfirm,
}: {
  connection: Connection | null;
  disconnecting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const count = connection?.monitors ?? 0;
  const noun = connection ? PROVIDER_WORDS[connection.provider].account : 'account';
  return (
    <Modal
      opened={connection !== null}
      onClose={onCancel}
      title={`Disconnect ${connection?.name ?? ''}?`}
      centered
    >
      <Stack gap="sm">
        <Text size="sm">
          Vigil forgets its access to{' '}
          <Text span fw={600}>
            {connection ? accountLabel(connection) : ''}
          </Text>
          .{' '}
          {count === 0
            ? `No monitor uses this ${noun}.`
            : `${count === 1 ? 'The monitor' : `The ${count} monitors`} watching it can no longer read it: ${count === 1 ? 'it reports' : 'they report'} the connection lost until you reconnect the ${noun}.`}
        </Text>
        {connection ? (
          <Text size="sm" c="dimmed">
            {REVOKE_HINTS[connection.provider]}
          </Text>
        ) : null}
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={disconnecting}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={disconnecting}>
          {connection?.provider === 'shopify' ? 'Disconnect shop' : 'Disconnect account'}
        </Button>
      </Group>
    </Modal>
  );
}

function ConnectionRow({
  connection,
  onDisconnect,
}: {
  connection: Connection;
  onDisconnect: (connection: Connection) => void;
}) {
  const label = accountLabel(connection);
  const warning = expiryWarning(connection);
  const reconnect = (
    <ReconnectButton
      service={SERVICE_OF_PROVIDER[connection.provider]}
      label={label}
      shop={connection.provider === 'shopify' ? connection.account : undefined}
    />
  );
  return (
    <Paper component="li" withBorder radius="md" p="sm" style={{ listStyle: 'none' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <ConnectionSummary connection={connection} detail={monitorsUsing(connection.monitors)} />
          <Group gap="xs">
            {connection.status !== 'active' ? reconnect : null}
            {connection.status !== 'disconnected' ? (
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => onDisconnect(connection)}
                aria-label={`Disconnect ${label}`}
              >
                Disconnect
              </Button>
            ) : null}
          </Group>
        </Group>
        {warning ? (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} p="xs" role="status">
            <Group justify="space-between" gap="xs">
              <Text size="sm" style={{ flex: '1 1 200px' }}>
                {warning}
              </Text>
              {reconnect}
            </Group>
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

/**
 * Settings' connected accounts, by provider (Shopify shops, Google accounts, Facebook accounts): each with its
 * status and monitors, to disconnect or reconnect, and a warning when Meta's access ends within a week.
 */
export function ConnectedAccountsCard() {
  const connections = useRequest('connections', (signal) => getConnections(undefined, signal));
  const [confirming, setConfirming] = useState<Connection | null>(null);
  const [disconnecting, setDisconnecting] = useState(false);

  async function disconnect(connection: Connection) {
    setDisconnecting(true);
    const result = await disconnectConnection(connection.connectionId);
    setDisconnecting(false);
    if (!result.ok) return;
    setConfirming(null);
    connections.update((data) => ({
      list: data.list.map((entry) => (entry.connectionId === result.data.connectionId ? result.data : entry)),
    }));
    notifications.show({
      color: 'vigil',
      title: `${connection.name} disconnected`,
      message:
        connection.monitors > 0
          ? 'Its monitors report the connection lost until you reconnect it.'
          : 'Reconnect it here whenever you need it again.',
    });
  }

  const list = connections.data?.list;
  if (!list && connections.status === 'failed') {
    return (
      <ErrorState title="Your connected accounts could not be loaded" onRetry={connections.reload}>
        Check your connection and try again.
      </ErrorState>
    );
  }
  if (!list) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading your connected accounts">
        <Skeleton h={64} radius="md" />
        <Skeleton h={64} radius="md" />
      </Stack>
    );
  }
  if (list.length === 0) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          No account is connected yet. Connect a Shopify shop, a Google account or a Facebook account while
          creating a monitor: Vigil then watches the shop, or the ad accounts you choose.
        </Text>
        <Button
          component={Link}
          to={MONITOR_CREATE_PATH}
          variant="light"
          leftSection={<IconPlus size={16} />}
        >
          New monitor
        </Button>
      </Stack>
    );
  }

  return (
    <>
      <Stack gap="lg">
        {PROVIDERS.map((provider) => {
          const ofProvider = list.filter((connection) => connection.provider === provider);
          if (ofProvider.length === 0) return null;
          const title = PROVIDER_WORDS[provider].accounts;
          return (
            <Stack key={provider} gap="xs" component="section" aria-label={title}>
              <Title order={3} fz="sm">
                {title}
              </Title>
              <Stack component="ul" gap="xs" m={0} p={0} aria-label={`Connected ${title}`}>
                {ofProvider.map((connection) => (
                  <ConnectionRow
                    key={connection.connectionId}
                    connection={connection}
                    onDisconnect={setConfirming}
                  />
                ))}
              </Stack>
            </Stack>
          );
        })}
      </Stack>
      <ConfirmDisconnect
        connection={confirming}
        disconnecting={disconnecting}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void disconnect(confirming)}
      />
    </>
  );
}
