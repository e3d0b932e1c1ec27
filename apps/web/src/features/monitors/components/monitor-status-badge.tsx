import { Badge } from '@mantine/core';
import type { MonitorStatus } from '@vigil/contracts';

const STATUS: Record<MonitorStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'gray' },
  up: { label: 'Up', color: 'green' },
  // The last check failed; the re-check (about 30 s later) confirms it or clears it.
  confirming: { label: 'Failing, confirming', color: 'orange' },
  down: { label: 'Down', color: 'red' },
  paused: { label: 'Paused', color: 'yellow' },
};

/**
 * The status in colour and in words, so it reads without colour too. A monitor Vigil paused because of the
 * plan's limits (`pauseReason`) says so, apart from one the person paused; a failure not yet confirmed shows
 * in amber at once rather than a green Up until the incident opens.
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
  const amber = byPlan || status === 'confirming';
  return (
    <Badge
      color={color}
      variant={status === 'down' ? 'filled' : 'light'}
      radius="sm"
      // Mantine's light orange text is 3.6:1 on its background; the warning colour reads at 4.6:1.
      c={amber ? 'var(--vigil-color-warning-text)' : undefined}
      // A narrow table column would otherwise cut the words short ("Pause…").
      miw="max-content"
    >
      {label}
    </Badge>
  );
}
