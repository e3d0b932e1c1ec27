import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import { failed, googleConnection, googleCustomers, ok } from '../../../../test/monitor-fixtures.ts';
import { getGoogleCustomers } from '../../api/get-google-customers.ts';
import { CustomerPicker } from './customer-picker.tsx';
import type { ChosenCustomer } from './index.ts';

vi.mock('../../api/get-google-customers.ts', () => ({ getGoogleCustomers: vi.fn() }));

const source = { connectionId: googleConnection.connectionId };
let chosen: ChosenCustomer | null = null;

function Picker() {
  const [value, setValue] = useState<ChosenCustomer | null>(null);
  return (
    <CustomerPicker
      source={source}
      value={value?.resourceName}
      onChange={(customer) => {
        chosen = customer;
        setValue(customer);
      }}
    />
  );
}

beforeEach(() => {
  chosen = null;
  vi.mocked(getGoogleCustomers).mockReset();
  vi.mocked(getGoogleCustomers).mockResolvedValue(ok({ list: googleCustomers }));
});

describe('CustomerPicker', () => {
  it('nests a manager’s client accounts under it; the manager itself cannot be chosen', async () => {
    renderWithProviders(<Picker />);
    const clients = await screen.findByRole('group', { name: 'Client accounts of Agency Manager' });
    expect(getGoogleCustomers).toHaveBeenCalledWith(source, expect.any(AbortSignal));
    expect(within(clients).getByRole('radio', { name: /Hoodie Co/ })).toHaveTextContent('222-333-4444 · USD');
    const sock = within(clients).getByRole('radio', { name: /Sock Shop/ });
    expect(sock).toHaveTextContent('Suspended');
    expect(sock).toHaveTextContent('EUR');
    expect(screen.getByRole('radio', { name: /Own Shop/ })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Agency Manager/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Manager account: it runs no ads itself/)).toBeInTheDocument();
  });

  it('chooses a client account, with what the form keeps of it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Picker />);
    await user.click(await screen.findByRole('radio', { name: /Hoodie Co/ }));
    expect(chosen).toEqual({
      resourceName: 'customers/2223334444',
      customerId: '2223334444',
      name: 'Hoodie Co',
      currency: 'USD',
    });
    expect(screen.getByRole('radio', { name: /Hoodie Co/ })).toHaveAttribute('aria-checked', 'true');
  });

  it('says when the Google account reaches no Google Ads account', async () => {
    vi.mocked(getGoogleCustomers).mockResolvedValue(ok({ list: [] }));
    renderWithProviders(<Picker />);
    expect(await screen.findByText(/This Google account reaches no Google Ads account/)).toBeInTheDocument();
  });

  it('offers a retry when the accounts cannot be loaded', async () => {
    vi.mocked(getGoogleCustomers).mockResolvedValueOnce(failed(502, 'Google Ads did not answer.'));
    const user = userEvent.setup();
    renderWithProviders(<Picker />);
    expect(await screen.findByText('Your Google Ads accounts could not be loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('radio', { name: /Hoodie Co/ })).toBeInTheDocument();
  });
});
