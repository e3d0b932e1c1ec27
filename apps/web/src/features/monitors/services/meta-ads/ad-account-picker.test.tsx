import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import { aFacebookAccount, failed, metaConnection, ok } from '../../../../test/monitor-fixtures.ts';
import { getFacebookAccounts } from '../../api/get-facebook-accounts.ts';
import { AdAccountPicker } from './ad-account-picker.tsx';
import type { ChosenAdAccount } from './index.ts';

vi.mock('../../api/get-facebook-accounts.ts', () => ({ getFacebookAccounts: vi.fn() }));

const source = { connectionId: metaConnection.connectionId };
const first = [
  aFacebookAccount(1),
  aFacebookAccount(2, {
    accountStatus: 2,
    statusLabel: 'disabled',
    disableReason: 3,
    disableReasonLabel: 'risk payment',
    currency: 'EUR',
    spendCap: null,
  }),
];
const second = [aFacebookAccount(3)];
let chosen: ChosenAdAccount | null = null;

function Picker() {
  const [value, setValue] = useState<ChosenAdAccount | null>(null);
  return (
    <AdAccountPicker
      source={source}
      value={value}
      onChange={(account) => {
        chosen = account;
        setValue(account);
      }}
    />
  );
}

beforeEach(() => {
  chosen = null;
  vi.mocked(getFacebookAccounts).mockReset();
  vi.mocked(getFacebookAccounts).mockImplementation(async ({ after }) =>
    after === 'cursor-2'
      ? ok({ list: second, paging: { after: null, before: 'b2' } })
      : ok({ list: first, paging: { after: 'cursor-2', before: null } }),
  );
});

describe('AdAccountPicker', () => {
  it('lists ad accounts with their status in words, spend and cap in their currency', async () => {
    renderWithProviders(<Picker />);
    const hoodie = await screen.findByRole('radio', { name: /Hoodie Co Ads/ });
    expect(hoodie).toHaveTextContent('Active');
    expect(hoodie).toHaveTextContent('act_1010101010 · USD · Spent $1,234.56 of a $5,000.00 spend cap');
    const disabled = screen.getByRole('radio', { name: /Ad account 2/ });
    expect(disabled).toHaveTextContent('Disabled: risk payment');
    expect(disabled).toHaveTextContent('Spent €1,234.56 · no spend cap');
  });

  it('loads more by cursor, keeping the accounts already listed, and chooses one', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Picker />);
    await user.click(await screen.findByRole('button', { name: 'Load more ad accounts' }));
    expect(await screen.findByRole('radio', { name: /Ad account 3/ })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Hoodie Co Ads/ })).toBeInTheDocument();
    expect(getFacebookAccounts).toHaveBeenLastCalledWith(
      { source, after: 'cursor-2' },
      expect.any(AbortSignal),
    );
    expect(screen.queryByRole('button', { name: 'Load more ad accounts' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Ad account 3/ }));
    expect(chosen).toEqual({ accountId: '1010101012', name: 'Ad account 3', currency: 'USD' });
  });

  it('retries a page that failed without losing the ones listed', async () => {
    vi.mocked(getFacebookAccounts)
      .mockResolvedValueOnce(ok({ list: first, paging: { after: 'cursor-2', before: null } }))
      .mockResolvedValueOnce(failed(502, 'Meta did not answer.'));
    const user = userEvent.setup();
    renderWithProviders(<Picker />);
    await user.click(await screen.findByRole('button', { name: 'Load more ad accounts' }));
    expect(await screen.findByText('More ad accounts could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Hoodie Co Ads/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('radio', { name: /Ad account 3/ })).toBeInTheDocument();
  });

  it('says when the Facebook account reaches no ad account', async () => {
    vi.mocked(getFacebookAccounts).mockResolvedValue(ok({ list: [], paging: { after: null, before: null } }));
    renderWithProviders(<Picker />);
    expect(await screen.findByText(/This Facebook account reaches no ad account/)).toBeInTheDocument();
  });
});
