import { Stack, Text } from '@mantine/core';
import type { MonitorListItem } from '@vigil/contracts';
import { AdsTargetDetail, AdsTargetSummary, WatchedItem } from '../ads/ads-target-parts.tsx';
import { adAccountTitle, adSetsSummary } from './meta-ads-format.ts';

type MetaAdsMonitor = Extract<MonitorListItem, { service: 'facebook_ads' }>;

function summaryOf(monitor: MetaAdsMonitor): string {
  return `${adAccountTitle(monitor.target.account)} · ${adSetsSummary(monitor.target.adSets.length)}`;
}

/** "Hoodie Co Ads (act_1010101010) · 2 ad sets", and a connection that needs Reconnect, in a list row. */
export function MetaAdsTargetSummary({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'facebook_ads') return null;
  return <AdsTargetSummary monitor={monitor} summary={summaryOf(monitor)} />;
}

export function MetaAdsTargetHeader({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'facebook_ads') return null;
  return (
    <Text size="sm" truncate="end">
      Meta ads · {summaryOf(monitor)} · {monitor.target.account.currency}
    </Text>
  );
}

/** The connection's state (lost, or Meta's access ending) with Reconnect, the watched ad sets, the linked shop. */
export function MetaAdsTargetDetail({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'facebook_ads') return null;
  const { account, adSets } = monitor.target;
  return (
    <AdsTargetDetail monitor={monitor} title="Watched ad sets" titleId="watched-ad-sets">
      {adSets.length === 0 ? (
        <Text size="sm">
          Every active ad set of {adAccountTitle(account)}, and the account’s status, spend and spend cap.
        </Text>
      ) : (
        <Stack gap="sm">
          <Stack component="ul" gap="xs" m={0} pl="md">
            {adSets.map((adSet) => (
              <WatchedItem key={adSet.adSetId} name={adSet.name} where={adSet.campaignName} />
            ))}
          </Stack>
          <Text size="sm" c="dimmed">
            In {adAccountTitle(account)}; the account’s status, spend and spend cap are checked too.
          </Text>
        </Stack>
      )}
    </AdsTargetDetail>
  );
}
