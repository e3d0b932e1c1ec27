import { Anchor, Text } from '@mantine/core';
import type { MonitorListItem } from '@vigil/contracts';

export function WebsiteTargetSummary({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'website') return null;
  return (
    <Text size="sm" c="dimmed" truncate="end">
      {monitor.target.url}
    </Text>
  );
}

export function WebsiteTargetHeader({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'website') return null;
  return (
    <Anchor href={monitor.target.url} target="_blank" rel="noopener noreferrer" size="sm" truncate="end">
      {monitor.target.url}
    </Anchor>
  );
}
