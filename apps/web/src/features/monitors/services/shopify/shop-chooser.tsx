import { useId, useState, type KeyboardEvent } from 'react';
import { Button, Group, Paper, Radio, Stack, Text, TextInput } from '@mantine/core';
import { shopInput, type Connection } from '@vigil/contracts';
import { ConnectionStatusBadge } from '../../components/connection-status-badge.tsx';
import { ConnectionSummary, monitorsUsing } from '../../components/connection-summary.tsx';
import { ReconnectButton } from '../../connect/reconnect-button.tsx';
import type { ConnectAccount } from '../types.ts';

/** The typed shop and its Connect button: leaves for Shopify's authorize page. */
function ConnectShop({ first, connect }: { first: boolean; connect: ConnectAccount }) {
  const [shop, setShop] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    const parsed = shopInput.safeParse(shop);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter your shop’s address.');
      return;
    }
    setError(null);
    setBusy(true);
    setError((await connect({ shop: parsed.data })) || null);
    setBusy(false);
  }

  // Enter in this field connects the shop rather than submitting the monitor form around it.
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void start();
  }

  return (
    <Stack gap={6}>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label={first ? 'Your shop’s address' : 'Connect another shop'}
          description="Its myshopify.com address, or the shop’s own web address."
          placeholder="hoodies.myshopify.com"
          autoComplete="off"
          spellCheck={false}
          value={shop}
          onChange={(event) => setShop(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          error={error}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          style={{ flex: '1 1 240px' }}
          maxLength={255}
        />
        <Button mt={{ base: 0, xs: 25 }} onClick={() => void start()} loading={busy}>
          Connect
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Shopify asks you to approve Vigil’s access to read the shop, then brings you back here with this form
        as you left it.
      </Text>
    </Stack>
  );
}

/**
 * Which shop the monitor watches: the user's working connections to choose from, those that stopped working
 * with their reason and a Reconnect button, and a field to connect a new shop.
 */
export function ShopChooser({
  connections,
  value,
  onChange,
  error,
  connect,
  reconnectMonitorId,
}: {
  connections: Connection[];
  value: string;
  onChange: (connectionId: string) => void;
  error?: string | undefined;
  connect: ConnectAccount;
  /** The edited monitor's own connection reconnects for it. */
  reconnectMonitorId: (connection: Connection) => string | undefined;
}) {
  const errorId = useId();
  const working = connections.filter((connection) => connection.status === 'active');
  const broken = connections.filter((connection) => connection.status !== 'active');

  return (
    <Stack gap="md">
      {working.length > 0 ? (
        <Radio.Group
          label="Shop"
          value={value}
          onChange={onChange}
          aria-describedby={error ? errorId : undefined}
        >
          <Stack gap="xs" mt="xs">
            {working.map((connection) => (
              <Radio.Card key={connection.connectionId} value={connection.connectionId} radius="md" p="sm">
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator mt={2} />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Text fw={600} size="sm">
                        {connection.name}
                      </Text>
                      <ConnectionStatusBadge status={connection.status} />
                    </Group>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {connection.account} · {monitorsUsing(connection.monitors)}
                    </Text>
                  </Stack>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </Radio.Group>
      ) : null}

      {broken.map((connection) => (
        <Paper
          key={connection.connectionId}
          withBorder
          radius="md"
          p="sm"
          role="group"
          aria-label={`${connection.name}: ${connection.status === 'lost' ? 'connection lost' : 'disconnected'}`}
        >
          <Group justify="space-between" align="flex-start" gap="sm">
            <ConnectionSummary
              connection={connection}
              detail={connection.connectionId === value ? 'chosen for this monitor' : ''}
            />
            <ReconnectButton
              shop={connection.account}
              monitorId={reconnectMonitorId(connection)}
              connect={connect}
            />
          </Group>
        </Paper>
      ))}

      {error ? (
        <Text size="sm" c="red" role="alert" id={errorId}>
          {error}
        </Text>
      ) : null}

      <ConnectShop first={connections.length === 0} connect={connect} />
    </Stack>
  );
}
