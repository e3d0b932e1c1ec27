import { Badge } from '@mantine/core';
import type { MonitorStatus } from '@vigil/contracts';

const STATUS: Record<MonitorStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'gray' },
  up: { label: 'Up', color: 'green' },
  down: { label: 'Down', color: 'red' },
  paused: { label: 'Paused', color: 'yellow' },
};

/** The status in colour and in words, so it reads without colour too. */
export function MonitorStatusBadge({ status }: { status: MonitorStatus }) {
  const { label, color } = STATUS[status];
  return (
    <Badge color={color} variant={status === 'down' ? 'filled' : 'light'} radius="sm">
      {label}
    </Badge>
  );
}
