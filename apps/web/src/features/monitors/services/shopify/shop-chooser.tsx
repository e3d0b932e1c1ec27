import { useState, type KeyboardEvent } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { shopInput, type Connection } from '@vigil/contracts';
import { ConnectionChooser } from '../../components/connection-chooser.tsx';
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
    setError((await connect({ service: 'shopify', shop: parsed.data })) || null);
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
  return (
    <ConnectionChooser
      label="Shop"
      connections={connections}
      value={value}
      onChange={onChange}
      error={error}
      connect={connect}
      reconnectMonitorId={reconnectMonitorId}
    >
      <ConnectShop first={connections.length === 0} connect={connect} />
    </ConnectionChooser>
  );
}
