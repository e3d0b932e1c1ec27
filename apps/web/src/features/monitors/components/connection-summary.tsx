import { Group, Stack, Text } from '@mantine/core';
import type { Connection } from '@vigil/contracts';
import { IconBuildingStore } from '../../../components/icons.tsx';
import { connectionReason } from '../services/shopify/shopify-format.ts';
import { ConnectionStatusBadge } from './connection-status-badge.tsx';

/** "No monitors use it yet", "Used by 1 monitor", "Used by 3 monitors". */
export function monitorsUsing(count: number): string {
  if (count === 0) return 'No monitors use it yet';
  return count === 1 ? 'Used by 1 monitor' : `Used by ${count} monitors`;
}

/**
 * A connected shop as a person reads it: its name and status, its address with `detail` after it, and why it
 * stopped working when it did.
 */
export function ConnectionSummary({ connection, detail }: { connection: Connection; detail: string }) {
  return (
    <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
      <Group gap="xs">
        <IconBuildingStore size={16} />
        <Text fw={600} size="sm">
          {connection.name}
        </Text>
        <ConnectionStatusBadge status={connection.status} />
      </Group>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {connection.account}
        {detail ? ` · ${detail}` : ''}
      </Text>
      {connection.status !== 'active' ? <Text size="sm">{connectionReason(connection)}</Text> : null}
    </Stack>
  );
}
