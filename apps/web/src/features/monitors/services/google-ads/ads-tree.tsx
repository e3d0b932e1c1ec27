import { useState } from 'react';
import { Badge, Checkbox, Group, Stack, VisuallyHidden } from '@mantine/core';
import { GOOGLE_ADS_MAX_ADS, GOOGLE_ADS_MAX_CAMPAIGNS, type GoogleCampaign } from '@vigil/contracts';
import { useRequest } from '../../../../lib/use-request.ts';
import type { AdsSource } from '../../api/ads-source.ts';
import { getGoogleCustomerAds } from '../../api/get-google-customer-ads.ts';
import {
  CheckboxCard,
  ChoiceFieldset,
  ChosenChips,
  EmptyListNote,
  ItemName,
  ListLoadFailed,
  ListSkeleton,
  SearchField,
} from '../../components/picker-parts.tsx';
import { humanise } from '../ads/ads-format.ts';
import { approvalBadge, primaryStatusBadge, watchedSummary } from './google-ads-format.ts';
import type { ChosenAd, ChosenCampaign } from './index.ts';

type AdGroup = GoogleCampaign['adGroups'][number];
type Ad = AdGroup['ads'][number];

export interface AdsChoice {
  campaigns: ChosenCampaign[];
  ads: ChosenAd[];
}

function chosenAd(campaign: GoogleCampaign, adGroup: AdGroup, ad: Ad): ChosenAd {
  return {
    resourceName: ad.resourceName,
    adId: ad.adId,
    name: ad.name,
    adGroupName: adGroup.name,
    campaignId: campaign.campaignId,
    campaignName: campaign.name,
  };
}

/** The campaigns, ad groups and ads whose names contain `query`; a matching parent keeps all it holds. */
export function filterCampaigns(campaigns: GoogleCampaign[], query: string): GoogleCampaign[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return campaigns;
  const has = (name: string) => name.toLowerCase().includes(needle);
  const result: GoogleCampaign[] = [];
  for (const campaign of campaigns) {
    if (has(campaign.name)) {
      result.push(campaign);
      continue;
    }
    const adGroups = campaign.adGroups
      .map((adGroup) =>
        has(adGroup.name) ? adGroup : { ...adGroup, ads: adGroup.ads.filter((ad) => has(ad.name)) },
      )
      .filter((adGroup) => has(adGroup.name) || adGroup.ads.length > 0);
    if (adGroups.length > 0) result.push({ ...campaign, adGroups });
  }
  return result;
}

function StatusBadge({ label, tone }: { label: string; tone: string }) {
  return (
    <Badge component="span" size="sm" variant="light" color={tone} radius="sm">
      {label}
    </Badge>
  );
}

function AdRow({
  ad,
  checked,
  disabled,
  coveredByCampaign,
  onToggle,
}: {
  ad: Ad;
  checked: boolean;
  disabled: boolean;
  coveredByCampaign: boolean;
  onToggle: (on: boolean) => void;
}) {
  const approval = approvalBadge(ad.approvalStatus);
  return (
    <li style={{ listStyle: 'none' }}>
      <Checkbox
        checked={checked || coveredByCampaign}
        disabled={disabled || coveredByCampaign}
        onChange={(event) => onToggle(event.currentTarget.checked)}
        label={<span style={{ overflowWrap: 'anywhere' }}>{ad.name || `Ad ${ad.adId}`}</span>}
        description={
          <Group gap={6} component="span" mt={2}>
            <StatusBadge {...approval} />
            {ad.status !== 'ENABLED' ? <StatusBadge label={humanise(ad.status)} tone="gray" /> : null}
            {ad.policyTopics.length > 0 ? (
              <span>Policy: {ad.policyTopics.map(humanise).join(', ')}</span>
            ) : null}
            {coveredByCampaign ? <span>Watched with its campaign</span> : null}
          </Group>
        }
      />
    </li>
  );
}

/**
 * What to watch in a Google Ads account, as a checkbox tree: campaigns (watched whole, with every ad they
 * serve), and under them ad groups (a shortcut to all their ads) and ads, each with its status. Filterable by
 * name; the choice is the form's, so it stays while filtering, and shows as removable chips.
 */
export function AdsTree({
  source,
  resourceName,
  customerName,
  choice,
  onChange,
  error,
}: {
  source: AdsSource;
  resourceName: string;
  customerName: string;
  choice: AdsChoice;
  onChange: (choice: AdsChoice) => void;
  error?: string | undefined;
}) {
  const [filter, setFilter] = useState('');
  const tree = useRequest(`google-customerads:${resourceName}:${JSON.stringify(source)}`, (signal) =>
    getGoogleCustomerAds({ resourceName, source }, signal),
  );
  const campaignIds = new Set(choice.campaigns.map((campaign) => campaign.campaignId));
  const adIds = new Set(choice.ads.map((ad) => ad.resourceName));
  const adsFull = choice.ads.length >= GOOGLE_ADS_MAX_ADS;
  const campaignsFull = choice.campaigns.length >= GOOGLE_ADS_MAX_CAMPAIGNS;

  function toggleCampaign(campaign: GoogleCampaign, on: boolean) {
    onChange(
      on
        ? {
            campaigns: [...choice.campaigns, { campaignId: campaign.campaignId, name: campaign.name }],
            // The campaign covers its ads: they are no longer chosen one by one.
            ads: choice.ads.filter((ad) => ad.campaignId !== campaign.campaignId),
          }
        : {
            ...choice,
            campaigns: choice.campaigns.filter((entry) => entry.campaignId !== campaign.campaignId),
          },
    );
  }

  function toggleAds(campaign: GoogleCampaign, adGroup: AdGroup, ads: Ad[], on: boolean) {
    const names = new Set(ads.map((ad) => ad.resourceName));
    const others = choice.ads.filter((ad) => !names.has(ad.resourceName));
    onChange({
      ...choice,
      ads: on ? [...others, ...ads.map((ad) => chosenAd(campaign, adGroup, ad))] : others,
    });
  }

  const data = tree.data;
  let body;
  if (!data && tree.status === 'failed') {
    body = (
      <ListLoadFailed title="The account’s campaigns and ads could not be loaded" onRetry={tree.reload} />
    );
  } else if (!data) {
    body = <ListSkeleton rows={3} height={88} />;
  } else if (data.campaigns.length === 0) {
    body = (
      <EmptyListNote>
        {customerName} has no campaigns yet. Choose “The whole account” to watch its status, spend and
        impressions; once it has campaigns you can choose them here.
      </EmptyListNote>
    );
  } else {
    const shown = filterCampaigns(data.campaigns, filter);
    body = (
      <>
        <SearchField
          label="Filter campaigns and ads"
          placeholder="A word from a campaign, ad group or ad name"
          value={filter}
          onChange={setFilter}
        />
        {shown.length === 0 ? (
          <EmptyListNote>No campaigns, ad groups or ads match “{filter.trim()}”.</EmptyListNote>
        ) : (
          <Stack component="ul" gap="sm" m={0} p={0} aria-label={`Campaigns of ${customerName}`}>
            {shown.map((campaign) => {
              const onCampaign = campaignIds.has(campaign.campaignId);
              const status = primaryStatusBadge(campaign.primaryStatus);
              return (
                <CheckboxCard
                  key={campaign.campaignId}
                  checked={onCampaign}
                  disabled={campaignsFull && !onCampaign}
                  onToggle={(on) => toggleCampaign(campaign, on)}
                  label={<ItemName>{campaign.name}</ItemName>}
                  description={
                    <Group gap={6} component="span" mt={2}>
                      <span>Campaign</span>
                      <StatusBadge {...status} />
                      {campaign.primaryStatusReasons.length > 0 ? (
                        <span>{campaign.primaryStatusReasons.map(humanise).join(', ')}</span>
                      ) : null}
                    </Group>
                  }
                >
                  <Stack component="ul" gap="sm" m={0} mt="sm" pl={{ base: 'sm', xs: 'xl' }}>
                    {campaign.adGroups.map((adGroup) => {
                      const ads = adGroup.ads;
                      const chosenHere = ads.filter((ad) => adIds.has(ad.resourceName)).length;
                      const all = ads.length > 0 && chosenHere === ads.length;
                      const room = GOOGLE_ADS_MAX_ADS - choice.ads.length;
                      return (
                        <li key={adGroup.adGroupId} style={{ listStyle: 'none' }}>
                          <Checkbox
                            checked={all || (onCampaign && ads.length > 0)}
                            indeterminate={!onCampaign && chosenHere > 0 && !all}
                            disabled={
                              onCampaign || ads.length === 0 || (!all && ads.length - chosenHere > room)
                            }
                            onChange={() => toggleAds(campaign, adGroup, ads, !all)}
                            label={<span style={{ overflowWrap: 'anywhere' }}>{adGroup.name}</span>}
                            description={`Ad group · ${ads.length === 0 ? 'no ads' : ads.length === 1 ? '1 ad' : `${ads.length} ads`}${adGroup.status !== 'ENABLED' ? ` · ${humanise(adGroup.status)}` : ''}`}
                          />
                          {ads.length > 0 ? (
                            <Stack
                              component="ul"
                              gap="xs"
                              m={0}
                              mt="xs"
                              pl={{ base: 'sm', xs: 'xl' }}
                              aria-label={`Ads of ${adGroup.name}`}
                            >
                              {ads.map((ad) => {
                                const checked = adIds.has(ad.resourceName);
                                return (
                                  <AdRow
                                    key={ad.resourceName}
                                    ad={ad}
                                    checked={checked}
                                    disabled={adsFull && !checked}
                                    coveredByCampaign={onCampaign}
                                    onToggle={(on) => toggleAds(campaign, adGroup, [ad], on)}
                                  />
                                );
                              })}
                            </Stack>
                          ) : null}
                        </li>
                      );
                    })}
                  </Stack>
                </CheckboxCard>
              );
            })}
          </Stack>
        )}
      </>
    );
  }

  const count = choice.campaigns.length + choice.ads.length;
  return (
    <ChoiceFieldset
      legend="Campaigns and ads to watch"
      hint="A chosen campaign is watched whole: its status and every ad it serves. Or choose single ads."
    >
      <ChosenChips
        summary={
          count === 0
            ? 'No campaigns or ads chosen yet'
            : `${watchedSummary(choice.campaigns.length, choice.ads.length)} chosen`
        }
        label="Chosen campaigns and ads"
        chips={[
          ...choice.campaigns.map((campaign) => ({
            key: campaign.campaignId,
            text: `Campaign: ${campaign.name}`,
            removeLabel: `Remove campaign ${campaign.name}`,
            onRemove: () =>
              onChange({
                ...choice,
                campaigns: choice.campaigns.filter((entry) => entry.campaignId !== campaign.campaignId),
              }),
          })),
          ...choice.ads.map((ad) => ({
            key: ad.resourceName,
            text: ad.name,
            removeLabel: `Remove ${ad.name}`,
            onRemove: () =>
              onChange({
                ...choice,
                ads: choice.ads.filter((entry) => entry.resourceName !== ad.resourceName),
              }),
          })),
        ]}
        limitNote={
          adsFull || campaignsFull
            ? `A monitor watches at most ${GOOGLE_ADS_MAX_CAMPAIGNS} campaigns and ${GOOGLE_ADS_MAX_ADS} ads; remove one to choose another.`
            : null
        }
        error={error}
      />
      <VisuallyHidden role="status" aria-live="polite">
        {tree.status === 'loading' ? 'Loading the account’s campaigns and ads…' : ''}
      </VisuallyHidden>
      {body}
    </ChoiceFieldset>
  );
}
