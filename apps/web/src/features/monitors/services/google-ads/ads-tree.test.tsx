import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GOOGLE_ADS_MAX_ADS } from '@vigil/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import { failed, hoodieCoAds, ok } from '../../../../test/monitor-fixtures.ts';
import { getGoogleCustomerAds } from '../../api/get-google-customer-ads.ts';
import { AdsTree, filterCampaigns, type AdsChoice } from './ads-tree.tsx';

vi.mock('../../api/get-google-customer-ads.ts', () => ({ getGoogleCustomerAds: vi.fn() }));
vi.setConfig({ testTimeout: 20_000 });

const source = { monitorId: '77777777-7777-4777-8777-777777777777' };
let latest: AdsChoice = { campaigns: [], ads: [] };

function Tree({ initial = { campaigns: [], ads: [] } }: { initial?: AdsChoice }) {
  const [choice, setChoice] = useState(initial);
  return (
    <AdsTree
      source={source}
      resourceName="customers/2223334444"
      customerName="Hoodie Co"
      choice={choice}
      onChange={(next) => {
        latest = next;
        setChoice(next);
      }}
    />
  );
}

beforeEach(() => {
  latest = { campaigns: [], ads: [] };
  vi.mocked(getGoogleCustomerAds).mockReset();
  vi.mocked(getGoogleCustomerAds).mockResolvedValue(ok(hoodieCoAds));
});

describe('AdsTree', () => {
  it('shows campaigns, ad groups and ads with their statuses, in a fieldset', async () => {
    renderWithProviders(<Tree />);
    const ad = await screen.findByRole('checkbox', { name: 'Zip hoodie free shipping' });
    expect(getGoogleCustomerAds).toHaveBeenCalledWith(
      { resourceName: 'customers/2223334444', source },
      expect.any(AbortSignal),
    );
    expect(screen.getByRole('group', { name: 'Campaigns and ads to watch' })).toBeInTheDocument();
    expect(ad).toHaveAccessibleDescription(/Disapproved.*Policy: Destination not working/);
    expect(screen.getByRole('checkbox', { name: 'Pullover new colours' })).toHaveAccessibleDescription(
      /Approved \(limited\)/,
    );
    expect(screen.getByRole('checkbox', { name: 'Brand — display' })).toHaveAccessibleDescription(
      /Not eligible.*Has ads disapproved/,
    );
    expect(screen.getByRole('checkbox', { name: 'Brand banner' })).toHaveAccessibleDescription(/Paused/);
  });

  it('chooses two ads, listing them as removable chips', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Tree />);
    await user.click(await screen.findByRole('checkbox', { name: 'Zip hoodie sale' }));
    await user.click(screen.getByRole('checkbox', { name: 'Pullover new colours' }));
    expect(screen.getByText('2 ads chosen')).toBeInTheDocument();
    expect(latest.ads.map((ad) => ad.resourceName)).toEqual([
      'customers/2223334444/adGroupAds/401~501',
      'customers/2223334444/adGroupAds/402~503',
    ]);
    expect(latest.ads[1]).toMatchObject({ adGroupName: 'Pullovers', campaignName: 'Hoodies — search' });
    // Half of Zip hoodies is chosen.
    expect(screen.getByRole('checkbox', { name: 'Zip hoodies' })).toHaveAttribute(
      'data-indeterminate',
      'true',
    );
    const chips = screen.getByRole('list', { name: 'Chosen campaigns and ads' });
    await user.click(within(chips).getByRole('button', { name: 'Remove Zip hoodie sale' }));
    expect(screen.getByText('1 ad chosen')).toBeInTheDocument();
  });

  it('chooses a whole ad group, and a campaign, which covers its ads', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Tree />);
    await user.click(await screen.findByRole('checkbox', { name: 'Zip hoodies' }));
    expect(latest.ads).toHaveLength(2);
    await user.click(screen.getByRole('checkbox', { name: 'Hoodies — search' }));
    expect(latest).toEqual({ campaigns: [{ campaignId: '301', name: 'Hoodies — search' }], ads: [] });
    const covered = screen.getByRole('checkbox', { name: 'Zip hoodie sale' });
    expect(covered).toBeChecked();
    expect(covered).toBeDisabled();
    expect(screen.getByText('1 campaign chosen')).toBeInTheDocument();
  });

  it('filters by name, keeping the choice', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Tree />);
    await user.click(await screen.findByRole('checkbox', { name: 'Brand banner' }));
    await user.type(screen.getByRole('searchbox', { name: 'Filter campaigns and ads' }), 'pullover');
    expect(screen.getByRole('checkbox', { name: 'Pullover new colours' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Brand banner' })).not.toBeInTheDocument();
    expect(screen.getByText('1 ad chosen')).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Filter campaigns and ads' }));
    await user.type(screen.getByRole('searchbox', { name: 'Filter campaigns and ads' }), 'scarves');
    expect(screen.getByText('No campaigns, ad groups or ads match “scarves”.')).toBeInTheDocument();
  });

  it('holds further ads once the limit is reached', async () => {
    const many = Array.from({ length: GOOGLE_ADS_MAX_ADS }, (_, n) => ({
      resourceName: `customers/2223334444/adGroupAds/9~${n}`,
      adId: String(n),
      name: `Old ad ${n}`,
      adGroupName: 'Old',
      campaignId: '999',
      campaignName: 'Old',
    }));
    renderWithProviders(<Tree initial={{ campaigns: [], ads: many }} />);
    expect(await screen.findByRole('checkbox', { name: 'Zip hoodie sale' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Zip hoodies' })).toBeDisabled();
    expect(screen.getByText(/watches at most 50 campaigns and 50 ads/)).toBeInTheDocument();
  });

  it('says when the account has no campaigns, and offers a retry when they cannot be loaded', async () => {
    vi.mocked(getGoogleCustomerAds)
      .mockResolvedValueOnce(failed(502, 'Google Ads did not answer.'))
      .mockResolvedValue(ok({ ...hoodieCoAds, campaigns: [] }));
    const user = userEvent.setup();
    renderWithProviders(<Tree />);
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/Hoodie Co has no campaigns yet/)).toBeInTheDocument();
  });

  it('keeps a matching campaign or ad group whole when filtering', () => {
    expect(filterCampaigns(hoodieCoAds.campaigns, 'zip')[0]!.adGroups.map((group) => group.name)).toEqual([
      'Zip hoodies',
    ]);
    expect(filterCampaigns(hoodieCoAds.campaigns, 'brand')[0]!.adGroups[0]!.ads).toHaveLength(1);
    expect(filterCampaigns(hoodieCoAds.campaigns, '')).toBe(hoodieCoAds.campaigns);
  });
});
