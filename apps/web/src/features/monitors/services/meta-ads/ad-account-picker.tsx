import { Badge, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import type { FacebookAccount } from '@vigil/contracts';
import type { AdsSource } from '../../api/ads-source.ts';
import { getFacebookAccounts } from '../../api/get-facebook-accounts.ts';
import { ListLoadFailed, ListSkeleton } from '../../components/picker-parts.tsx';
import { CursorListFooter } from '../ads/cursor-list-footer.tsx';
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
    body = <ListLoadFailed title="Your ad accounts could not be loaded" onRetry={accounts.retry} />;
  } else if (!loaded) {
    body = <ListSkeleton rows={2} height={64} />;
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
      <CursorListFooter list={accounts} noun="ad account" />
    </Stack>
  );
}
