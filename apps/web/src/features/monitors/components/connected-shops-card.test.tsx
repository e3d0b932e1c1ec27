import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { aConnection, connectionId, failed, ok } from '../../../test/monitor-fixtures.ts';
import { disconnectConnection } from '../api/disconnect-connection.ts';
import { getConnections } from '../api/get-connections.ts';
import { getOAuthUri } from '../api/get-oauth-uri.ts';
import { ConnectedShopsCard } from './connected-shops-card.tsx';

vi.mock('../api/get-connections.ts', () => ({ getConnections: vi.fn() }));
vi.mock('../api/disconnect-connection.ts', () => ({ disconnectConnection: vi.fn() }));
vi.mock('../api/get-oauth-uri.ts', () => ({ getOAuthUri: vi.fn() }));

const hoodies = aConnection({ monitors: 2 });
const socks = aConnection({
  connectionId: connectionId(2),
  account: 'socks.myshopify.com',
  name: 'Socks',
  status: 'lost',
  statusReason: 'The Vigil app was uninstalled from the shop.',
  monitors: 1,
});

beforeEach(() => {
  for (const fn of [getConnections, disconnectConnection, getOAuthUri]) vi.mocked(fn).mockReset();
});

describe('ConnectedShopsCard', () => {
  it('lists each shop with its domain, status and monitors; a lost one with its reason and Reconnect', async () => {
    vi.mocked(getConnections).mockResolvedValue(ok({ list: [hoodies, socks] }));
    renderWithProviders(<ConnectedShopsCard />);
    const [first, second] = within(await screen.findByRole('list', { name: 'Connected shops' })).getAllByRole(
      'listitem',
    );
    expect(first).toHaveTextContent('Hoodies');
    expect(first).toHaveTextContent('hoodies.myshopify.com · Used by 2 monitors');
    expect(within(first!).getByText('Connected')).toBeInTheDocument();
    expect(within(first!).queryByRole('button', { name: /Reconnect/ })).not.toBeInTheDocument();
    expect(within(second!).getByText('Connection lost')).toBeInTheDocument();
    expect(second).toHaveTextContent('The Vigil app was uninstalled from the shop.');
    expect(
      within(second!).getByRole('button', { name: 'Reconnect socks.myshopify.com' }),
    ).toBeInTheDocument();
    expect(getConnections).toHaveBeenCalledWith('shopify', expect.any(AbortSignal));
  });

  it('disconnects a shop after a confirmation that explains what happens to its monitors', async () => {
    vi.mocked(getConnections).mockResolvedValue(ok({ list: [hoodies] }));
    vi.mocked(disconnectConnection).mockResolvedValue(
      ok({ ...hoodies, status: 'disconnected', statusReason: 'You disconnected the shop in Vigil.' }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ConnectedShopsCard />);
    await user.click(await screen.findByRole('button', { name: 'Disconnect hoodies.myshopify.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Hoodies?' });
    expect(dialog).toHaveTextContent(
      'The 2 monitors watching it can no longer read it: they report the connection lost until you reconnect the shop.',
    );
    expect(disconnectConnection).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect shop' }));
    expect(disconnectConnection).toHaveBeenCalledExactlyOnceWith(hoodies.connectionId);
    const item = await screen.findByText('You disconnected the shop in Vigil.');
    expect(item.closest('li')).toHaveTextContent('Disconnected');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Reconnect hoodies.myshopify.com' })).toBeInTheDocument();
  });

  it('points to a new monitor when no shop is connected', async () => {
    vi.mocked(getConnections).mockResolvedValue(ok({ list: [] }));
    renderWithProviders(<ConnectedShopsCard />);
    expect(await screen.findByText(/No shop is connected yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New monitor' })).toHaveAttribute('href', '/app/monitor_create');
  });

  it('offers a retry when the shops cannot be loaded', async () => {
    vi.mocked(getConnections)
      .mockResolvedValueOnce(failed())
      .mockResolvedValue(ok({ list: [hoodies] }));
    const user = userEvent.setup();
    renderWithProviders(<ConnectedShopsCard />);
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hoodies')).toBeInTheDocument();
  });
});
