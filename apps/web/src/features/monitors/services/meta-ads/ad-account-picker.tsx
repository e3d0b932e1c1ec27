import { Badge, Button, Group, Paper, Radio, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { FacebookAccount } from '@vigil/contracts';
import { ErrorState } from '../../../../components/page-states.tsx';
import type { AdsSource } from '../../api/ads-source.ts';
import { getFacebookAccounts } from '../../api/get-facebook-accounts.ts';
import { countOf } from '../ads/ads-format.ts';
import { useCursorList } from '../ads/use-cursor-list.ts';
import type { ChosenAdAccount } from './index.ts';
import { accountStatusWords, adAccountTitle, isActiveAccount, spendWords } from './meta-ads-format.ts';

function AccountCard({ account }: { account: FacebookAccount }) {
  const active = isActiveAccount(account);
  return (
    <Radio.Card value={account.accountId} radius="md" p="sm">
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Radio.Indicator mt={2} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {account.name || 'Unnamed ad account'}
            </Text>
            <Badge color={active ? 'green' : 'red'} variant="light" radius="sm" style={{ maxWidth: '100%' }}>
              {accountStatusWords(account)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            act_{account.accountId} · {account.currency} · {spendWords(account)}
          </Text>
        </Stack>
      </Group>
    </Radio.Card>
  );
}

/** The Facebook account's ad accounts, a page at a time ("Load more"), to choose the one to watch. */
export function AdAccountPicker({
  source,
  value,
  onChange,
  error,
}: {
  source: AdsSource;
  value: ChosenAdAccount | null;
  onChange: (account: ChosenAdAccount) => void;
  error?: string | undefined;
}) {
  const accounts = useCursorList(`facebook-accounts:${JSON.stringify(source)}`, (after, signal) =>
    getFacebookAccounts({ source, ...(after ? { after } : {}) }, signal),
  );
  const { items, status, loaded } = accounts;

  function choose(accountId: string) {
    const account = items.find((entry) => entry.accountId === accountId);
    if (account) onChange({ accountId, name: account.name, currency: account.currency });
  }

  let body;
  if (!loaded && status === 'failed') {
    body = (
      <ErrorState title="Your ad accounts could not be loaded" onRetry={accounts.retry}>
        Check your connection and try again.
      </ErrorState>
    );
  } else if (!loaded) {
    body = (
      <Stack gap="xs" aria-hidden="true">
        <Skeleton h={64} radius="md" />
        <Skeleton h={64} radius="md" />
      </Stack>
    );
  } else if (items.length === 0) {
    body = (
      <Paper withBorder radius="md" p="md">
        <Text size="sm">
          This Facebook account reaches no ad account. Create one in Meta Business Suite, or connect the
          Facebook account that manages your ads.
        </Text>
      </Paper>
    );
  } else {
    body = (
      <Radio.Group
        label="Ad account"
        description="The ad accounts this Facebook account can read."
        value={value?.accountId ?? null}
        onChange={choose}
        error={error}
        inputWrapperOrder={['label', 'description', 'input', 'error']}
      >
        <Stack gap="xs" mt="xs">
          {items.map((account) => (
            <AccountCard key={account.accountId} account={account} />
          ))}
        </Stack>
      </Radio.Group>
    );
  }

  return (
    <Stack gap="sm">
      {value && !items.some((account) => account.accountId === value.accountId) ? (
        <Text size="sm">Chosen: {adAccountTitle(value)}</Text>
      ) : null}
      {body}
      {!loaded && error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      {loaded && status === 'failed' ? (
        <ErrorState title="More ad accounts could not be loaded" onRetry={accounts.retry}>
          Check your connection and try again.
        </ErrorState>
      ) : null}
      {loaded && accounts.hasMore && status !== 'failed' ? (
        <Button
          variant="default"
          onClick={accounts.loadMore}
          loading={status === 'loading'}
          style={{ alignSelf: 'flex-start' }}
        >
          Load more ad accounts
        </Button>
      ) : null}
      <VisuallyHidden role="status" aria-live="polite">
        {status === 'loading'
          ? 'Loading ad accounts…'
          : loaded
            ? `${countOf(items.length, 'ad account')} listed${accounts.hasMore ? ', more to load' : ''}.`
            : ''}
      </VisuallyHidden>
    </Stack>
  );
}
