import { Alert, Stack } from '@mantine/core';
import type { Connection } from '@vigil/contracts';
import { IconAlertTriangle } from '../../../../components/icons.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import type { AdsSource } from '../../api/ads-source.ts';
import { getConnections } from '../../api/get-connections.ts';
import { accountLabel } from '../../connect/connection-format.ts';
import { AdsConnectionStep } from '../ads/ads-connection-step.tsx';
import { LinkedShopField } from '../ads/linked-shop-field.tsx';
import type { ServiceSectionProps } from '../types.ts';
import { AdAccountPicker } from './ad-account-picker.tsx';
import { AdSetPicker } from './ad-set-picker.tsx';
import type { ChosenAdAccount, ChosenAdSet, MetaAdsTargetValues } from './index.ts';
import { adAccountTitle } from './meta-ads-format.ts';

/**
 * A Meta ads monitor's section: the Facebook account (chosen, reconnected or connected), then one of its ad
 * accounts, the ad sets to watch (none = every active one), and the shop the ads lead to.
 */
export function MetaAdsSection({ form, monitorId, savedTarget, connect }: ServiceSectionProps) {
  const target = form.getValues().target as MetaAdsTargetValues;
  const { conditions } = form.getValues();
  const connections = useRequest('connections:meta', (signal) => getConnections('meta', signal));
  // The edited monitor's own Facebook account: it lists and reconnects through the monitor (the spec's calls).
  const savedConnectionId = (savedTarget as MetaAdsTargetValues | undefined)?.connectionId;
  const errors = form.errors as Record<string, string | undefined>;

  function update(change: Partial<MetaAdsTargetValues>, clear: string[]) {
    form.setFieldValue('target', { ...target, ...change });
    for (const field of clear) form.clearFieldError(field);
  }

  function chooseConnection(connectionId: string) {
    if (connectionId === target.connectionId) return;
    update({ connectionId, account: null, adSets: [] }, ['target.connectionId']);
  }

  function chooseAccount(account: ChosenAdAccount) {
    if (account.accountId === target.account?.accountId) return;
    update({ account, adSets: [] }, ['target.accountId']);
  }

  function chooseAdSets(adSets: ChosenAdSet[]) {
    update({ adSets }, ['target.adSetIds']);
  }

  const reconnectMonitorId = (connection: Connection) =>
    monitorId && connection.connectionId === savedConnectionId ? monitorId : undefined;

  const chosen = connections.data?.list.find((entry) => entry.connectionId === target.connectionId);
  const source: AdsSource | null = !chosen
    ? null
    : monitorId && chosen.connectionId === savedConnectionId
      ? { monitorId }
      : { connectionId: chosen.connectionId };
  const account = target.account;
  const working = chosen && source && chosen.status === 'active' ? source : null;

  return (
    <Stack gap="lg">
      <AdsConnectionStep
        provider="meta"
        service="facebook_ads"
        connections={connections}
        onRetry={connections.reload}
        value={target.connectionId}
        onChange={chooseConnection}
        error={errors['target.connectionId']}
        connect={connect}
        reconnectMonitorId={reconnectMonitorId}
        connectLabel="Connect Meta ads"
        connectHint="Facebook asks you to let Vigil read your ad accounts, then brings you back here with this form as you left it. Meta’s access lasts 60 days; Vigil reminds you to reconnect a week before it ends."
      />

      {chosen && chosen.status !== 'active' ? (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} role="status">
          Reconnect {accountLabel(chosen)} to see its ad accounts.
          {account ? ` ${adAccountTitle(account)} stays chosen.` : ''}
        </Alert>
      ) : null}

      {working ? (
        <AdAccountPicker
          key={chosen?.connectionId}
          source={working}
          value={account}
          onChange={chooseAccount}
          error={errors['target.accountId']}
        />
      ) : null}

      {working && account ? (
        <AdSetPicker
          key={account.accountId}
          source={working}
          accountId={account.accountId}
          currency={account.currency}
          chosen={target.adSets}
          onChange={chooseAdSets}
          error={errors['target.adSetIds']}
        />
      ) : null}

      <LinkedShopField
        value={target.linkedMonitorId}
        onChange={(linkedMonitorId) => update({ linkedMonitorId }, ['target.linkedMonitorId'])}
        error={errors['target.linkedMonitorId']}
        monitorId={monitorId}
        conditionOn={conditions.shop_cannot_sell?.enabled ?? false}
      />
    </Stack>
  );
}
