import { Card, Stack, Text, Title } from '@mantine/core';
import type { Monitor } from '@vigil/contracts';
import { AdsConnectionAlert, AdsConnectionLine, LinkedShopCard } from '../ads/ads-target-parts.tsx';
import { customerTitle, watchedSummary } from './google-ads-format.ts';

type GoogleAdsMonitor = Extract<Monitor, { service: 'google_ads' }>;

function summaryOf(monitor: GoogleAdsMonitor): string {
  const { customer, campaigns, ads } = monitor.target;
  return `${customerTitle(customer)} · ${watchedSummary(campaigns.length, ads.length)}`;
}

function connectionOf(monitor: GoogleAdsMonitor) {
  return {
    monitorId: monitor.monitorId,
    provider: 'google' as const,
    service: 'google_ads' as const,
    connection: monitor.connection,
  };
}

/** "Hoodie Co (222-333-4444) · 2 ads", and a lost connection with its Reconnect, in a list row. */
export function GoogleAdsTargetSummary({ monitor }: { monitor: Monitor }) {
  if (monitor.service !== 'google_ads') return null;
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" truncate="end">
        {summaryOf(monitor)}
      </Text>
      <AdsConnectionLine {...connectionOf(monitor)} />
    </Stack>
  );
}

export function GoogleAdsTargetHeader({ monitor }: { monitor: Monitor }) {
  if (monitor.service !== 'google_ads') return null;
  return (
    <Text size="sm" truncate="end">
      Google Ads · {summaryOf(monitor)} · {monitor.target.customer.currency}
    </Text>
  );
}

/** The connection's state with Reconnect, the watched campaigns and ads, and the linked shop monitor. */
export function GoogleAdsTargetDetail({ monitor }: { monitor: Monitor }) {
  if (monitor.service !== 'google_ads') return null;
  const { customer, campaigns, ads, linkedMonitorId } = monitor.target;
  return (
    <>
      <AdsConnectionAlert {...connectionOf(monitor)} />
      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="watched-ads">
        <Title order={2} fz="lg" id="watched-ads" mb="md">
          Watched in Google Ads
        </Title>
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
                    <Text component="li" size="sm" key={ad.resourceName}>
                      <Text span fw={600} size="sm">
                        {ad.name}
                      </Text>{' '}
                      <Text span c="dimmed" size="sm">
                        · {ad.campaignName} › {ad.adGroupName}
                      </Text>
                    </Text>
                  ))}
                </Stack>
              </Stack>
            ) : null}
            <Text size="sm" c="dimmed">
              In {customerTitle(customer)}; the account’s status and spend are checked too.
            </Text>
          </Stack>
        )}
      </Card>
      <LinkedShopCard linkedMonitorId={linkedMonitorId} />
    </>
  );
}
