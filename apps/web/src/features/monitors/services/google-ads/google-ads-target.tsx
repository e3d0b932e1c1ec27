import { Stack, Text, Title } from '@mantine/core';
import type { MonitorListItem } from '@vigil/contracts';
import { AdsTargetDetail, AdsTargetSummary, WatchedItem } from '../ads/ads-target-parts.tsx';
import { customerTitle, watchedSummary } from './google-ads-format.ts';

type GoogleAdsMonitor = Extract<MonitorListItem, { service: 'google_ads' }>;

function summaryOf(monitor: GoogleAdsMonitor): string {
  const { customer, campaigns, ads } = monitor.target;
  return `${customerTitle(customer)} · ${watchedSummary(campaigns.length, ads.length)}`;
}

/** "Hoodie Co (222-333-4444) · 2 ads", and a lost connection with its Reconnect, in a list row. */
export function GoogleAdsTargetSummary({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'google_ads') return null;
  return <AdsTargetSummary monitor={monitor} summary={summaryOf(monitor)} />;
}

export function GoogleAdsTargetHeader({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'google_ads') return null;
  return (
    <Text size="sm" truncate="end">
      Google Ads · {summaryOf(monitor)} · {monitor.target.customer.currency}
    </Text>
  );
}

/** The connection's state with Reconnect, the watched campaigns and ads, and the linked shop monitor. */
export function GoogleAdsTargetDetail({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'google_ads') return null;
  const { customer, campaigns, ads } = monitor.target;
  return (
    <AdsTargetDetail monitor={monitor} title="Watched in Google Ads" titleId="watched-ads">
      {campaigns.length === 0 && ads.length === 0 ? (
        <Text size="sm">
          The whole account {customerTitle(customer)}: its status, spend and impressions, and every ad it
          serves.
        </Text>
      ) : (
        <Stack gap="md">
          {campaigns.length > 0 ? (
            <Stack gap={4}>
              <Title order={3} fz="sm">
                Campaigns
              </Title>
              <Stack component="ul" gap={4} m={0} pl="md">
                {campaigns.map((campaign) => (
                  <Text component="li" size="sm" key={campaign.campaignId}>
                    {campaign.name}
                  </Text>
                ))}
              </Stack>
            </Stack>
          ) : null}
          {ads.length > 0 ? (
            <Stack gap={4}>
              <Title order={3} fz="sm">
                Ads
              </Title>
              <Stack component="ul" gap="xs" m={0} pl="md">
                {ads.map((ad) => (
                  <WatchedItem
                    key={ad.resourceName}
                    name={ad.name}
                    where={`${ad.campaignName} › ${ad.adGroupName}`}
                  />
                ))}
              </Stack>
            </Stack>
          ) : null}
          <Text size="sm" c="dimmed">
            In {customerTitle(customer)}; the account’s status and spend are checked too.
          </Text>
        </Stack>
      )}
    </AdsTargetDetail>
  );
}
