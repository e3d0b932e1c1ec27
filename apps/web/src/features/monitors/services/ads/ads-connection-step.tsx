import { useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import type { ConnectedService, Connection, Provider } from '@vigil/contracts';
import { IconAlertTriangle, IconPlus } from '../../../../components/icons.tsx';
import { ErrorState, SectionSpinner } from '../../../../components/page-states.tsx';
import type { RequestState } from '../../../../lib/use-request.ts';
import { ConnectionChooser } from '../../components/connection-chooser.tsx';
import { accountLabel, PROVIDER_WORDS } from '../../connect/connection-format.ts';
import type { ConnectAccount } from '../types.ts';

/** Leaves for the provider to connect an account; shows why when that could not start. */
function ConnectButton({
  service,
  label,
  hint,
  connect,
}: {
  service: ConnectedService;
  label: string;
  hint: string;
  connect: ConnectAccount;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start() {
    setError(null);
    setBusy(true);
    setError((await connect({ service })) || null);
    setBusy(false);
  }

  return (
    <Stack gap={6} align="flex-start">
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        onClick={() => void start()}
        loading={busy}
        size="md"
      >
        {label}
      </Button>
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}

/**
 * The first step of an ads monitor's section: the connected account (a Google or Facebook account) it reads
 * through, chosen among the working ones, reconnected, or connected now.
 */
export function AdsConnectionStep({
  provider,
  service,
  connections,
  onRetry,
  value,
  onChange,
  error,
  connect,
  reconnectMonitorId,
  connectLabel,
  connectHint,
}: {
  provider: Provider;
  service: ConnectedService;
  connections: RequestState<{ list: Connection[] }>;
  onRetry: () => void;
  value: string;
  onChange: (connectionId: string) => void;
  error?: string | undefined;
  connect: ConnectAccount;
  reconnectMonitorId: (connection: Connection) => string | undefined;
  /** "Connect Google Ads". */
  connectLabel: string;
  connectHint: string;
}) {
  const words = PROVIDER_WORDS[provider];
  const list = connections.data?.list;
  if (!list && connections.status === 'failed') {
    return (
      <ErrorState title={`Your connected ${words.accounts} could not be loaded`} onRetry={onRetry}>
        Check your connection and try again.
      </ErrorState>
    );
  }
  if (!list) return <SectionSpinner label={`Loading your connected ${words.accounts}`} />;
  return (
    <ConnectionChooser
      label={words.account[0]!.toUpperCase() + words.account.slice(1)}
      connections={list}
      value={value}
      onChange={onChange}
      error={error}
      connect={connect}
      reconnectMonitorId={reconnectMonitorId}
    >
      {list.length === 0 ? <Text size="sm">No {words.account} is connected yet.</Text> : null}
      <ConnectButton service={service} label={connectLabel} hint={connectHint} connect={connect} />
    </ConnectionChooser>
  );
}

/**
 * Under the connection step when the chosen account does not work: what to reconnect to see its ad accounts
 * (`accounts`), and that the ad account already chosen (`chosenTitle`) stays.
 */
export function ReconnectToSeeNote({
  connection,
  accounts,
  chosenTitle,
}: {
  connection: Connection;
  /** "Google Ads accounts". */
  accounts: string;
  chosenTitle: string | null;
}) {
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} role="status">
      Reconnect {accountLabel(connection)} to see its {accounts}.
      {chosenTitle ? ` ${chosenTitle} stays chosen.` : ''}
    </Alert>
  );
}
