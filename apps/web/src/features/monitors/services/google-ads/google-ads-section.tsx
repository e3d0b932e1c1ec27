import { Alert, Radio, Stack, Text, Title } from '@mantine/core';
import type { Connection } from '@vigil/contracts';
import { IconAlertTriangle } from '../../../../components/icons.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import type { AdsSource } from '../../api/ads-source.ts';
import { getConnections } from '../../api/get-connections.ts';
import { accountLabel } from '../../connect/connection-format.ts';
import { AdsConnectionStep } from '../ads/ads-connection-step.tsx';
import { LinkedShopField } from '../ads/linked-shop-field.tsx';
import type { ServiceSectionProps } from '../types.ts';
import { AdsTree, type AdsChoice } from './ads-tree.tsx';
import { CustomerPicker } from './customer-picker.tsx';
import { customerTitle } from './google-ads-format.ts';
import type { ChosenCustomer, GoogleAdsTargetValues } from './index.ts';

/**
 * A Google Ads monitor's section: the Google account (chosen, reconnected or connected), then the Google Ads
 * account it reaches, then the whole account or chosen campaigns and ads, and the shop the ads lead to.
 */
export function GoogleAdsSection({ form, monitorId, savedTarget, connect }: ServiceSectionProps) {
  const target = form.getValues().target as GoogleAdsTargetValues;
  const { conditions } = form.getValues();
  const connections = useRequest('connections:google', (signal) => getConnections('google', signal));
  // The edited monitor's own Google account: it lists and reconnects through the monitor (the spec's calls).
  const savedConnectionId = (savedTarget as GoogleAdsTargetValues | undefined)?.connectionId;
  const errors = form.errors as Record<string, string | undefined>;

  function update(change: Partial<GoogleAdsTargetValues>, clear: string[]) {
    form.setFieldValue('target', { ...target, ...change });
    for (const field of clear) form.clearFieldError(field);
  }

  function chooseConnection(connectionId: string) {
    if (connectionId === target.connectionId) return;
    update({ connectionId, customer: null, campaigns: [], ads: [] }, ['target.connectionId']);
  }

  function chooseCustomer(customer: ChosenCustomer) {
    if (customer.resourceName === target.customer?.resourceName) return;
    update({ customer, campaigns: [], ads: [] }, ['target.customer']);
  }

  function chooseAds(choice: AdsChoice) {
    update(choice, ['target.adIds', 'target.campaignIds']);
  }

  const reconnectMonitorId = (connection: Connection) =>
    monitorId && connection.connectionId === savedConnectionId ? monitorId : undefined;

  const chosen = connections.data?.list.find((entry) => entry.connectionId === target.connectionId);
  const source: AdsSource | null = !chosen
    ? null
    : monitorId && chosen.connectionId === savedConnectionId
      ? { monitorId }
      : { connectionId: chosen.connectionId };
  const customer = target.customer;

  return (
    <Stack gap="lg">
      <AdsConnectionStep
        provider="google"
        service="google_ads"
        connections={connections}
        onRetry={connections.reload}
        value={target.connectionId}
        onChange={chooseConnection}
        error={errors['target.connectionId']}
        connect={connect}
        reconnectMonitorId={reconnectMonitorId}
        connectLabel="Connect Google Ads"
        connectHint="Google asks you to let Vigil read your Google Ads accounts, then brings you back here with this form as you left it."
      />

      {chosen && source && chosen.status !== 'active' ? (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} role="status">
          Reconnect {accountLabel(chosen)} to see its Google Ads accounts.
          {customer ? ` ${customerTitle(customer)} stays chosen.` : ''}
        </Alert>
      ) : null}

      {chosen && source && chosen.status === 'active' ? (
        <CustomerPicker
          key={chosen.connectionId}
          source={source}
          value={customer?.resourceName}
          onChange={chooseCustomer}
          error={errors['target.customer']}
        />
      ) : !chosen && errors['target.customer'] ? (
        <Text size="sm" c="red" role="alert">
          {errors['target.customer']}
        </Text>
      ) : null}

      {chosen && source && chosen.status === 'active' && customer ? (
        <Stack gap="sm" component="section" aria-labelledby="google-ads-watch-title">
          <Title order={3} fz="md" id="google-ads-watch-title">
            What to watch in {customerTitle(customer)}
          </Title>
          <Radio.Group
            aria-labelledby="google-ads-watch-title"
            value={target.watch}
            onChange={(watch) =>
              update({ watch: watch === 'chosen' ? 'chosen' : 'account' }, [
                'target.adIds',
                'target.campaignIds',
              ])
            }
          >
            <Stack gap="xs">
              <Radio
                value="account"
                label="The whole account"
                description="Its status, spend and impressions, and every ad it serves."
              />
              <Radio
                value="chosen"
                label="Chosen campaigns and ads"
                description="Only what you tick below (the account’s status and spend are still checked)."
              />
            </Stack>
          </Radio.Group>
          {target.watch === 'chosen' ? (
            <AdsTree
              key={customer.resourceName}
              source={source}
              resourceName={customer.resourceName}
              customerName={customer.name}
              choice={{ campaigns: target.campaigns, ads: target.ads }}
              onChange={chooseAds}
              error={errors['target.adIds'] ?? errors['target.campaignIds']}
            />
          ) : null}
        </Stack>
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
