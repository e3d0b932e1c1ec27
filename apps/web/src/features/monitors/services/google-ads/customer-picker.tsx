import { Badge, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import type { GoogleCustomer } from '@vigil/contracts';
import { ErrorState, SectionSpinner } from '../../../../components/page-states.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import type { AdsSource } from '../../api/ads-source.ts';
import { getGoogleCustomers } from '../../api/get-google-customers.ts';
import { formatCustomerId, humanise } from '../ads/ads-format.ts';
import { advertisableCustomers } from './google-ads-format.ts';
import type { ChosenCustomer } from './index.ts';

type Customer = GoogleCustomer['clients'][number];

function CustomerCard({ customer }: { customer: Customer }) {
  const disabled = customer.manager;
  return (
    <Radio.Card
      value={customer.resourceName}
      radius="md"
      p="sm"
      disabled={disabled}
      style={disabled ? { opacity: 0.7, cursor: 'not-allowed' } : undefined}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Radio.Indicator mt={2} disabled={disabled} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {customer.name || 'Unnamed account'}
            </Text>
            {customer.status !== 'ENABLED' ? (
              <Badge color={customer.status === 'SUSPENDED' ? 'red' : 'gray'} variant="light" radius="sm">
                {humanise(customer.status)}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {formatCustomerId(customer.customerId)} · {customer.currency}
            {customer.manager ? ' · Manager account (runs no ads)' : ''}
          </Text>
        </Stack>
      </Group>
    </Radio.Card>
  );
}

/**
 * The Google Ads account (customer) to watch, among those the Google account reaches: its own accounts, and
 * each manager account with its client accounts nested under it. A manager runs no ads, so only its clients
 * are choosable.
 */
export function CustomerPicker({
  source,
  value,
  onChange,
  error,
}: {
  source: AdsSource;
  value: string | undefined;
  onChange: (customer: ChosenCustomer) => void;
  error?: string | undefined;
}) {
  const customers = useRequest(`google-customers:${JSON.stringify(source)}`, (signal) =>
    getGoogleCustomers(source, signal),
  );
  const list = customers.data?.list;
  if (!list && customers.status === 'failed') {
    return (
      <ErrorState title="Your Google Ads accounts could not be loaded" onRetry={customers.reload}>
        Check your connection and try again.
      </ErrorState>
    );
  }
  if (!list) return <SectionSpinner label="Loading your Google Ads accounts" />;
  if (list.length === 0) {
    return (
      <Paper withBorder radius="md" p="md">
        <Text size="sm">
          This Google account reaches no Google Ads account. Sign in to Google Ads with it to create one, or
          connect the Google account that manages your ads.
        </Text>
      </Paper>
    );
  }

  const choosable = advertisableCustomers(list);
  function choose(resourceName: string) {
    const customer = choosable.find((entry) => entry.resourceName === resourceName);
    if (customer) {
      const { customerId, name, currency } = customer;
      onChange({ resourceName, customerId, name, currency });
    }
  }

  // A client reached both directly and through a manager shows once, where it first comes.
  const shown = new Set<string>();
  const firstTime = (customer: Customer) => {
    const first = !shown.has(customer.resourceName);
    shown.add(customer.resourceName);
    return first;
  };

  return (
    <Radio.Group
      label="Google Ads account"
      description="The accounts this Google account can reach. A manager account’s client accounts are listed under it."
      value={value ?? null}
      onChange={choose}
      error={error}
      inputWrapperOrder={['label', 'description', 'input', 'error']}
    >
      <Stack gap="xs" mt="xs">
        {list.map((customer) =>
          customer.manager ? (
            <Paper key={customer.resourceName} withBorder radius="md" p="sm" bg="gray.0">
              <Stack gap="xs">
                <Stack gap={0}>
                  <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {customer.name || 'Unnamed manager'} · {formatCustomerId(customer.customerId)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Manager account: it runs no ads itself, so choose one of its client accounts.
                  </Text>
                </Stack>
                {customer.clients.length === 0 ? (
                  <Text size="sm">No client accounts under this manager.</Text>
                ) : (
                  <Stack
                    gap="xs"
                    pl={{ base: 'xs', xs: 'lg' }}
                    role="group"
                    aria-label={`Client accounts of ${customer.name || formatCustomerId(customer.customerId)}`}
                  >
                    {customer.clients.filter(firstTime).map((client) => (
                      <CustomerCard key={client.resourceName} customer={client} />
                    ))}
                  </Stack>
                )}
              </Stack>
            </Paper>
          ) : (
            firstTime(customer) && <CustomerCard key={customer.resourceName} customer={customer} />
          ),
        )}
      </Stack>
    </Radio.Group>
  );
}
