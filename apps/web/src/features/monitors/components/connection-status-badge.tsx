import { Badge } from '@mantine/core';
import type { ConnectionStatus } from '@vigil/contracts';
import { CONNECTION_STATUS_LABELS } from '../connect/connection-format.ts';

const COLORS: Record<ConnectionStatus, string> = { active: 'green', lost: 'red', disconnected: 'gray' };

/** A connection's status in colour and in words. */
export function ConnectionStatusBadge({ status }: { status: ConnectionStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" radius="sm">
      {CONNECTION_STATUS_LABELS[status]}
    </Badge>
  );
}
