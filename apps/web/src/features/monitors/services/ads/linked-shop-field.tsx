import { Anchor, Button, Group, Paper, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { MonitorListItem } from '@vigil/contracts';
import { Link } from 'react-router';
import { ErrorState } from '../../../../components/page-states.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import { getMonitors } from '../../api/get-monitors.ts';
import { MONITOR_CREATE_PATH } from '../../paths.ts';

/** The monitor list read for the choice: one page of the most a person is likely to have. */
export const LINKABLE_MONITORS_QUERY = { page: 1, pageSize: 100 } as const;

export const LINKED_SHOP_LABEL = 'Shop these ads send people to (optional)';
export const LINKED_SHOP_DESCRIPTION =
  'While that monitor has an open incident, you get one “ads are spending while the shop cannot sell” alert with the money spent since, instead of the ad account’s own alerts on top.';

/** The person's own website and Shopify monitors, but not the one being edited. */
export function linkableMonitors(list: MonitorListItem[], editedMonitorId: string | undefined) {
  return list.filter(
    (monitor) =>
      (monitor.service === 'website' || monitor.service === 'shopify') &&
      monitor.monitorId !== editedMonitorId,
  );
}

function whereOf(monitor: MonitorListItem): string {
  if (monitor.service === 'website') return monitor.target.url;
  if (monitor.service === 'shopify') return monitor.target.shop;
  return '';
}

/**
 * The optional link from an ads monitor to the website or Shopify monitor of the shop its ads lead to: while
 * that one is down, the ads monitor sends one "spending while the shop cannot sell" alert instead of its own.
 */
export function LinkedShopField({
  value,
  onChange,
  error,
  monitorId,
  conditionOn,
}: {
  value: string | null;
  onChange: (monitorId: string | null) => void;
  error?: string | undefined;
  /** The monitor being edited, left out of the choice. */
  monitorId?: string | undefined;
  /** Whether the "shop cannot sell" check is on: without a link it has nothing to watch. */
  conditionOn: boolean;
}) {
  const monitors = useRequest('monitors:linkable', (signal) => getMonitors(LINKABLE_MONITORS_QUERY, signal));
  const list = monitors.data ? linkableMonitors(monitors.data.list, monitorId) : undefined;

  let field;
  if (!list && monitors.status === 'failed') {
    field = (
      <ErrorState title="Your website and Shopify monitors could not be loaded" onRetry={monitors.reload}>
        Check your connection and try again. You can also save without a link and add it later.
      </ErrorState>
    );
  } else if (list && list.length === 0) {
    field = (
      <Paper withBorder radius="md" p="md">
        <Stack gap="xs" align="flex-start">
          <Text size="sm" fw={600}>
            {LINKED_SHOP_LABEL}
          </Text>
          <Text size="sm">
            You have no website or Shopify monitor to link yet. Create one for the shop these ads lead to,
            then come back to link it: {LINKED_SHOP_DESCRIPTION.replace(/^While/, 'while')}
          </Text>
          <Group gap="sm">
            <Anchor component={Link} to={MONITOR_CREATE_PATH} target="_blank" size="sm">
              Create a website or Shopify monitor (opens in a new tab)
            </Anchor>
            <Button
              variant="default"
              size="xs"
              onClick={monitors.reload}
              loading={monitors.status === 'loading'}
            >
              Check again
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  } else {
    const group = (service: 'website' | 'shopify', name: string) => ({
      group: name,
      items: (list ?? [])
        .filter((monitor) => monitor.service === service)
        .map((monitor) => ({ value: monitor.monitorId, label: `${monitor.name} · ${whereOf(monitor)}` })),
    });
    const data = [group('website', 'Websites'), group('shopify', 'Shopify shops')].filter(
      (entry) => entry.items.length > 0,
    );
    field = (
      <Select
        label={LINKED_SHOP_LABEL}
        description={LINKED_SHOP_DESCRIPTION}
        placeholder={list ? 'No shop linked' : 'Loading your monitors…'}
        data={data}
        value={value}
        onChange={(next) => onChange(next)}
        clearable
        searchable
        nothingFoundMessage="No monitor matches"
        disabled={!list}
        error={error}
        inputWrapperOrder={['label', 'description', 'input', 'error']}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }

  return (
    <Stack gap={6}>
      {field}
      <VisuallyHidden role="status" aria-live="polite">
        {monitors.status === 'loading' ? 'Loading your website and Shopify monitors…' : ''}
      </VisuallyHidden>
      {list && list.length > 0 && !value && conditionOn ? (
        <Text size="xs" c="dimmed">
          Without a linked shop, the check “Ads spending while the shop cannot sell” has nothing to watch.
        </Text>
      ) : null}
      {error && list?.length === 0 ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
