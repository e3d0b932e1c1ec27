import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { deleteMonitors } from '../api/delete-monitors.ts';
import { pauseMonitors } from '../api/pause-monitors.ts';
import { startMonitors } from '../api/start-monitors.ts';

export type MonitorAction = 'pause' | 'start' | 'delete';

const RUN = { pause: pauseMonitors, start: startMonitors, delete: deleteMonitors };
const DONE: Record<MonitorAction, string> = { pause: 'paused', start: 'started', delete: 'deleted' };

function monitors(count: number) {
  return count === 1 ? '1 monitor' : `${count} monitors`;
}

/**
 * Pause, start or delete monitors by id, with a notice when done. Resolves true on success; a failure was
 * already shown by the api client.
 */
export function useMonitorActions() {
  const [running, setRunning] = useState<MonitorAction | null>(null);

  async function run(action: MonitorAction, monitorIds: string[]): Promise<boolean> {
    setRunning(action);
    const result = await RUN[action](monitorIds);
    setRunning(null);
    if (!result.ok) return false;
    notifications.show({
      color: 'vigil',
      title: `${monitors(result.data.count)} ${DONE[action]}`,
      message:
        action === 'pause'
          ? 'No checks run and no alerts go out until you start them again.'
          : action === 'start'
            ? 'Checks resume at the next interval.'
            : 'Their history and incidents were deleted too.',
    });
    return true;
  }

  return { running, run };
}
