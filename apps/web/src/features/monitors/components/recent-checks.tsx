import { Card, Group, Skeleton, Text, Title } from '@mantine/core';
import { MAX_RECENT_CHECKS, type CheckResult, type Monitor } from '@vigil/contracts';
import { ErrorState } from '../../../components/page-states.tsx';
import { useRequest } from '../../../lib/use-request.ts';
import { getMonitorChecks } from '../api/get-monitor-checks.ts';
import { describeCheck, summariseChecks } from '../checks-summary.ts';

const BAR_HEIGHT = 32;
const COLORS = {
  passed: 'var(--mantine-color-green-6)',
  failed: 'var(--mantine-color-red-6)',
  empty: 'var(--mantine-color-default-border)',
} as const;

/**
 * The last checks as thin bars, oldest left and newest right, green for a pass and red for a failure, with gray
 * slots on the left while there are fewer than `slots`. The bars share the width (no sideways scroll on a phone);
 * each says its check in its tooltip. Hidden from screen readers: the summary below says the same in words.
 */
export function CheckStatusBar({
  checks,
  slots = MAX_RECENT_CHECKS,
  now = Date.now(),
}: {
  checks: readonly CheckResult[];
  slots?: number;
  now?: number;
}) {
  const shown = checks.slice(-slots);
  const empty = slots - shown.length;
  return (
    <div
      aria-hidden="true"
      data-testid="check-status-bar"
      style={{
        display: 'flex',
        height: BAR_HEIGHT,
        // 1 px between bars on a phone, up to 4 px on a wide screen.
        gap: 'clamp(1px, 0.3vw, 4px)',
      }}
    >
      {Array.from({ length: empty }, (_, i) => (
        <span key={`empty-${i}`} data-check="empty" style={barStyle(COLORS.empty)} />
      ))}
      {shown.map((check, i) => (
        <span
          key={`${check.at}-${i}`}
          data-check={check.ok ? 'passed' : 'failed'}
          title={describeCheck(check, now)}
          style={barStyle(check.ok ? COLORS.passed : COLORS.failed)}
        />
      ))}
    </div>
  );
}

function barStyle(background: string) {
  return { flex: '1 1 0', minWidth: 0, borderRadius: 'clamp(1px, 0.2vw, 3px)', background };
}

/** The monitor's recent checks: the status bar and its summary, reloaded when a new check shows. */
export function RecentChecks({ monitor }: { monitor: Monitor }) {
  const checks = useRequest(`checks:${monitor.monitorId}:${monitor.lastCheckedAt}`, (signal) =>
    getMonitorChecks({ monitorId: monitor.monitorId }, signal),
  );
  const list = checks.data?.checks;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="recent-checks">
      <Group justify="space-between" mb="sm" gap="sm">
        <Title order={2} fz="lg" id="recent-checks">
          Recent checks
        </Title>
        <Text size="xs" c="dimmed" aria-hidden="true">
          Oldest left, newest right
        </Text>
      </Group>
      {list === undefined && checks.status === 'failed' ? (
        <ErrorState title="The recent checks could not be loaded" onRetry={checks.reload} />
      ) : list === undefined ? (
        // The bar and its line of text, so nothing below moves when they arrive.
        <div role="status" aria-label="Loading the recent checks">
          <Skeleton h={BAR_HEIGHT} radius="sm" />
          <Skeleton h={20} w="60%" mt="sm" radius="sm" />
        </div>
      ) : (
        <>
          <CheckStatusBar checks={list} />
          <Text size="sm" c="dimmed" mt="sm" data-testid="recent-checks-summary">
            {summariseChecks(list)}
          </Text>
        </>
      )}
    </Card>
  );
}
