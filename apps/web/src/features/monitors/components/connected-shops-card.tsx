import { useState } from 'react';
import { Button, Group, Modal, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import type { Connection } from '@vigil/contracts';
import { IconPlus } from '../../../components/icons.tsx';
import { ErrorState } from '../../../components/page-states.tsx';
import { useRequest } from '../../../lib/use-request.ts';
import { disconnectConnection } from '../api/disconnect-connection.ts';
import { getConnections } from '../api/get-connections.ts';
import { ReconnectButton } from '../connect/reconnect-button.tsx';
import { MONITOR_CREATE_PATH } from '../paths.ts';
import { ConnectionSummary, monitorsUsing } from './connection-summary.tsx';

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
            {connection?.account}
          </Text>
          .{' '}
          {count === 0
            ? 'No monitor uses this shop.'
            : `${count === 1 ? 'The monitor' : `The ${count} monitors`} watching it can no longer read it: ${count === 1 ? 'it reports' : 'they report'} the connection lost until you reconnect the shop.`}
        </Text>
        <Text size="sm" c="dimmed">
          To remove Vigil from the shop entirely, also uninstall the app in your Shopify admin.
        </Text>
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={disconnecting}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={disconnecting}>
          Disconnect shop
        </Button>
      </Group>
    </Modal>
  );
}

/** Settings' connected shops: each with its status and monitors, to disconnect or reconnect. */
export function ConnectedShopsCard() {
  const connections = useRequest('connections:shopify', (signal) => getConnections('shopify', signal));
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
      <ErrorState title="Your connected shops could not be loaded" onRetry={connections.reload}>
        Check your connection and try again.
      </ErrorState>
    );
  }
  if (!list) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading your connected shops">
        <Skeleton h={64} radius="md" />
        <Skeleton h={64} radius="md" />
      </Stack>
    );
  }
  if (list.length === 0) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          No shop is connected yet. Connect your Shopify shop while creating a Shopify monitor: Vigil then
          watches its storefront, checkout and the products you choose.
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
      <Stack component="ul" gap="xs" m={0} p={0} aria-label="Connected shops">
        {list.map((connection) => (
          <Paper
            component="li"
            key={connection.connectionId}
            withBorder
            radius="md"
            p="sm"
            style={{ listStyle: 'none' }}
          >
            <Group justify="space-between" align="flex-start" gap="sm">
              <ConnectionSummary connection={connection} detail={monitorsUsing(connection.monitors)} />
              <Group gap="xs">
                {connection.status !== 'active' ? <ReconnectButton shop={connection.account} /> : null}
                {connection.status !== 'disconnected' ? (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    onClick={() => setConfirming(connection)}
                    aria-label={`Disconnect ${connection.account}`}
                  >
                    Disconnect
                  </Button>
                ) : null}
              </Group>
            </Group>
          </Paper>
        ))}
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
