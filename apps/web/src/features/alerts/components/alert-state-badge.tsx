import { Badge } from '@mantine/core';
import type { IncidentState } from '@vigil/contracts';

export const STATE_LABELS: Record<IncidentState, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

const COLORS: Record<IncidentState, string> = { open: 'red', acknowledged: 'yellow', resolved: 'green' };

export function AlertStateBadge({ state }: { state: IncidentState }) {
  return (
    <Badge color={COLORS[state]} variant={state === 'open' ? 'filled' : 'light'} radius="sm">
      {STATE_LABELS[state]}
    </Badge>
  );
}
