import { Card, Stack, Text, Title } from '@mantine/core';
import type { Monitor } from '@vigil/contracts';
import { AdsConnectionAlert, AdsConnectionLine, LinkedShopCard } from '../ads/ads-target-parts.tsx';
import { adAccountTitle, adSetsSummary } from './meta-ads-format.ts';

type MetaAdsMonitor = Extract<Monitor, { service: 'facebook_ads' }>;

function summaryOf(monitor: MetaAdsMonitor): string {
  return `${adAccountTitle(monitor.target.account)} · ${adSetsSummary(monitor.target.adSets.length)}`;
}

function connectionOf(monitor: MetaAdsMonitor) {
  return {
    monitorId: monitor.monitorId,
    provider: 'meta' as const,
    service: 'facebook_ads' as const,
    connection: monitor.connection,
  };
}

/** "Hoodie Co Ads (act_1010101010) · 2 ad sets", and a connection that needs Reconnect, in a list row. */
export function MetaAdsTargetSummary({ monitor }: { monitor: Monitor }) {
  if (monitor.service !== 'facebook_ads') return null;
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" truncate="end">
        {summaryOf(monitor)}
      </Text>
      <AdsConnectionLine {...connectionOf(monitor)} />
    </Stack>
  );
}

export function MetaAdsTargetHeader({ monitor }: { monitor: Monitor }) {
  if (monitor.service !== 'facebook_ads') return null;
  return (
    <Text size="sm" truncate="end">
      Meta ads · {summaryOf(monitor)} · {monitor.target.account.currency}
    </Text>
  );
}

/** The connection's state (lost, or Meta's access ending) with Reconnect, the watched ad sets, the linked shop. */
export function MetaAdsTargetDetail({ monitor }: { monitor: Monitor }) {
  if (monitor.service !== 'facebook_ads') return null;
  const { account, adSets, linkedMonitorId } = monitor.target;
  return (
    <>
      <AdsConnectionAlert {...connectionOf(monitor)} />
      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="watched-ad-sets">
        <Title order={2} fz="lg" id="watched-ad-sets" mb="md">
          Watched ad sets
        </Title>
        {adSets.length === 0 ? (
          <Text size="sm">
            Every active ad set of {adAccountTitle(account)}, and the account’s status, spend and spend cap.
          </Text>
        ) : (
          <Stack gap="sm">
            <Stack component="ul" gap="xs" m={0} pl="md">
              {adSets.map((adSet) => (
                <Text component="li" size="sm" key={adSet.adSetId}>
                  <Text span fw={600} size="sm">
                    {adSet.name}
                  </Text>{' '}
                  <Text span c="dimmed" size="sm">
                    · {adSet.campaignName}
                  </Text>
                </Text>
              ))}
            </Stack>
            <Text size="sm" c="dimmed">
              In {adAccountTitle(account)}; the account’s status, spend and spend cap are checked too.
            </Text>
          </Stack>
        )}
      </Card>
      <LinkedShopCard linkedMonitorId={linkedMonitorId} />
    </>
  );
}
