import { Badge } from '@mantine/core';
import type { MonitorStatus } from '@vigil/contracts';

const STATUS: Record<MonitorStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'gray' },
  up: { label: 'Up', color: 'green' },
  down: { label: 'Down', color: 'red' },
  paused: { label: 'Paused', color: 'yellow' },
};

/**
 * The status in colour and in words, so it reads without colour too. A monitor Vigil paused because of the
 * plan's limits (`pauseReason`) says so, apart from one the person paused.
 */
export function MonitorStatusBadge({
  status,
  pauseReason = null,
}: {
  status: MonitorStatus;
  pauseReason?: string | null;
}) {
  const byPlan = Boolean(pauseReason);
  const { label, color } = byPlan ? { label: 'Paused by plan', color: 'orange' } : STATUS[status];
  return (
    <Badge
      color={color}
      variant={status === 'down' ? 'filled' : 'light'}
      radius="sm"
      // Mantine's light orange text is 3.6:1 on its background; the warning colour reads at 4.6:1.
      c={byPlan ? 'var(--vigil-color-warning-text)' : undefined}
      // A narrow table column would otherwise cut the words short ("Pause…").
      miw="max-content"
    >
      {label}
    </Badge>
  );
}
