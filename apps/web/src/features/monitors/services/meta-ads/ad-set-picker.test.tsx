import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import { aFacebookAdSet, metaConnection, ok } from '../../../../test/monitor-fixtures.ts';
import { getFacebookAdSets } from '../../api/get-facebook-adsets.ts';
import { AdSetPicker } from './ad-set-picker.tsx';
import type { ChosenAdSet } from './index.ts';

vi.mock('../../api/get-facebook-adsets.ts', () => ({ getFacebookAdSets: vi.fn() }));

const source = { connectionId: metaConnection.connectionId };
let latest: ChosenAdSet[] = [];

function Picker({ initial = [] }: { initial?: ChosenAdSet[] }) {
  const [chosen, setChosen] = useState(initial);
  return (
    <AdSetPicker
      source={source}
      accountId="1010101010"
      currency="USD"
      chosen={chosen}
      onChange={(next) => {
        latest = next;
        setChosen(next);
      }}
    />
  );
}

beforeEach(() => {
  latest = [];
  vi.mocked(getFacebookAdSets).mockReset();
  vi.mocked(getFacebookAdSets).mockImplementation(async ({ after }) =>
    after
      ? ok({
          account: { accountId: '1010101010', name: 'Hoodie Co Ads', currency: 'USD', timeZone: 'UTC' },
          list: [aFacebookAdSet(3)],
          paging: { after: null, before: 'b' },
        })
      : ok({
          account: { accountId: '1010101010', name: 'Hoodie Co Ads', currency: 'USD', timeZone: 'UTC' },
          list: [
            aFacebookAdSet(1),
            aFacebookAdSet(2, {
              effectiveStatus: 'WITH_ISSUES',
              dailyBudget: null,
              lifetimeBudget: '900.00',
              issues: ['Your ad was rejected: it links to a page that does not load.'],
            }),
          ],
          paging: { after: 'next-1', before: null },
        }),
  );
});

describe('AdSetPicker', () => {
  it('lists ad sets with status, budget and issues; none chosen watches every active one', async () => {
    renderWithProviders(<Picker />);
    expect(await screen.findByRole('checkbox', { name: 'Ad set 1' })).toHaveAccessibleDescription(
      /Active.*Hoodies — prospecting.*Daily budget \$60\.00/,
    );
    expect(screen.getByRole('checkbox', { name: 'Ad set 2' })).toHaveAccessibleDescription(
      /With issues.*Lifetime budget \$900\.00.*Issues: Your ad was rejected/,
    );
    expect(getFacebookAdSets).toHaveBeenCalledWith(
      { accountId: '1010101010', source },
      expect.any(AbortSignal),
    );
    expect(screen.getByRole('group', { name: 'Ad sets to watch' })).toBeInTheDocument();
    expect(screen.getByText('No ad sets chosen: every active ad set is watched')).toBeInTheDocument();
  });

  it('chooses ad sets across pages and removes one by its chip', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Picker />);
    await user.click(await screen.findByRole('checkbox', { name: 'Ad set 2' }));
    await user.click(screen.getByRole('button', { name: 'Load more ad sets' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Ad set 3' }));
    expect(screen.getByText('2 ad sets chosen')).toBeInTheDocument();
    expect(latest).toEqual([
      { adSetId: '23850000000002', name: 'Ad set 2', campaignName: 'Hoodies — prospecting' },
      { adSetId: '23850000000003', name: 'Ad set 3', campaignName: 'Hoodies — prospecting' },
    ]);
    await user.click(
      within(screen.getByRole('list', { name: 'Chosen ad sets' })).getByRole('button', {
        name: 'Remove Ad set 2',
      }),
    );
    expect(screen.getByRole('checkbox', { name: 'Ad set 2' })).not.toBeChecked();
  });

  it('holds further ad sets once 50 are chosen', async () => {
    const many = Array.from({ length: 50 }, (_, n) => ({
      adSetId: `9${n}`,
      name: `Old ${n}`,
      campaignName: 'C',
    }));
    renderWithProviders(<Picker initial={many} />);
    expect(await screen.findByRole('checkbox', { name: 'Ad set 1' })).toBeDisabled();
    expect(screen.getByText(/watches at most 50 ad sets/)).toBeInTheDocument();
  });

  it('says when the account has no ad sets', async () => {
    vi.mocked(getFacebookAdSets).mockResolvedValue(
      ok({
        account: { accountId: '1010101010', name: 'Hoodie Co Ads', currency: 'USD', timeZone: 'UTC' },
        list: [],
        paging: { after: null, before: null },
      }),
    );
    renderWithProviders(<Picker />);
    expect(await screen.findByText(/This ad account has no ad sets yet/)).toBeInTheDocument();
  });
});
