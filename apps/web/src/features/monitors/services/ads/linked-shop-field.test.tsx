import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import {
  aGoogleAdsMonitor,
  aMonitor,
  aShopifyMonitor,
  failed,
  ok,
} from '../../../../test/monitor-fixtures.ts';
import { getMonitors } from '../../api/get-monitors.ts';
import { LINKED_SHOP_LABEL, LinkedShopField } from './linked-shop-field.tsx';

vi.mock('../../api/get-monitors.ts', () => ({ getMonitors: vi.fn() }));

const storefront = aMonitor();
const shop = aShopifyMonitor();
const ads = aGoogleAdsMonitor();
const page = (list: unknown[]) => ok({ list, total: list.length, page: 1, pageSize: 100 }) as never;
let latest: string | null = null;

function Field({ monitorId, conditionOn = true }: { monitorId?: string; conditionOn?: boolean }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <LinkedShopField
      value={value}
      onChange={(next) => {
        latest = next;
        setValue(next);
      }}
      monitorId={monitorId}
      conditionOn={conditionOn}
    />
  );
}

beforeEach(() => {
  latest = null;
  vi.mocked(getMonitors).mockReset();
  vi.mocked(getMonitors).mockResolvedValue(page([storefront, shop, ads]));
});

describe('LinkedShopField', () => {
  it('offers the person’s website and Shopify monitors, not ads monitors nor the one edited', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Field monitorId={shop.monitorId} />);
    const select = await screen.findByLabelText(LINKED_SHOP_LABEL, { selector: 'input' });
    expect(getMonitors).toHaveBeenCalledWith({ page: 1, pageSize: 100 }, expect.any(AbortSignal));
    expect(select).toHaveAccessibleDescription(/one “ads are spending while the shop cannot sell” alert/);
    await vi.waitFor(() => expect(select).toBeEnabled());
    await user.click(select);
    expect(
      await screen.findByRole('option', { name: 'Storefront · https://shop.example.com' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Hoodies shop/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Hoodie Co ads/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Storefront · https://shop.example.com' }));
    expect(latest).toBe(storefront.monitorId);
  });

  it('notes that the shop check has nothing to watch without a link', async () => {
    renderWithProviders(<Field />);
    expect(await screen.findByText(/has nothing to watch/)).toBeInTheDocument();
  });

  it('says there is nothing to link yet, with a way to create one', async () => {
    vi.mocked(getMonitors).mockResolvedValue(page([ads]));
    renderWithProviders(<Field />);
    expect(await screen.findByText(/You have no website or Shopify monitor to link yet/)).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Create a website or Shopify monitor (opens in a new tab)' }),
    ).toHaveAttribute('href', '/app/monitor_create');
  });

  it('offers a retry when the monitors cannot be loaded', async () => {
    vi.mocked(getMonitors).mockResolvedValueOnce(failed());
    const user = userEvent.setup();
    renderWithProviders(<Field />);
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText(LINKED_SHOP_LABEL, { selector: 'input' })).toBeInTheDocument();
  });
});
