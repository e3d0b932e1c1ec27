import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import {
  aConnection,
  connectionId,
  failed,
  googleConnection,
  metaConnection,
  ok,
} from '../../../test/monitor-fixtures.ts';
import { disconnectConnection } from '../api/disconnect-connection.ts';
import { getConnections } from '../api/get-connections.ts';
import { getOAuthUri } from '../api/get-oauth-uri.ts';
import { ConnectedAccountsCard } from './connected-accounts-card.tsx';

vi.mock('../api/get-connections.ts', () => ({ getConnections: vi.fn() }));
vi.mock('../api/disconnect-connection.ts', () => ({ disconnectConnection: vi.fn() }));
vi.mock('../api/get-oauth-uri.ts', () => ({ getOAuthUri: vi.fn() }));

const NOW = Date.parse('2026-04-27T12:00:00.000Z');

const hoodies = aConnection({ monitors: 2 });
const socks = aConnection({
  connectionId: connectionId(2),
  account: 'socks.myshopify.com',
  name: 'Socks',
  status: 'lost',
  statusReason: 'The Vigil app was uninstalled from the shop.',
  monitors: 1,
});
const lostGoogle = aConnection({
  ...googleConnection,
  connectionId: connectionId(12),
  name: 'ads@vigil.test',
  status: 'lost',
  statusReason: null,
  monitors: 0,
});

beforeEach(() => {
  for (const fn of [getConnections, disconnectConnection, getOAuthUri]) vi.mocked(fn).mockReset();
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

describe('ConnectedAccountsCard', () => {
  it('lists each shop with its domain, status and monitors; a lost one with its reason and Reconnect', async () => {
    vi.mocked(getConnections).mockResolvedValue(ok({ list: [hoodies, socks] }));
    renderWithProviders(<ConnectedAccountsCard />);
    const [first, second] = within(
      await screen.findByRole('list', { name: 'Connected Shopify shops' }),
    ).getAllByRole('listitem');
    expect(first).toHaveTextContent('Hoodies');
    expect(first).toHaveTextContent('hoodies.myshopify.com · Used by 2 monitors');
    expect(within(first!).getByText('Connected')).toBeInTheDocument();
    expect(within(first!).queryByRole('button', { name: /Reconnect/ })).not.toBeInTheDocument();
    expect(within(second!).getByText('Connection lost')).toBeInTheDocument();
    expect(second).toHaveTextContent('The Vigil app was uninstalled from the shop.');
    expect(
      within(second!).getByRole('button', { name: 'Reconnect socks.myshopify.com' }),
    ).toBeInTheDocument();
    expect(getConnections).toHaveBeenCalledWith(undefined, expect.any(AbortSignal));
    expect(screen.queryByRole('region', { name: 'Google accounts' })).not.toBeInTheDocument();
  });

  it('groups Shopify shops, Google accounts and Facebook accounts, each named as people know it', async () => {
    vi.mocked(getConnections).mockResolvedValue(
      ok({ list: [googleConnection, hoodies, { ...metaConnection, expiresAt: null }, lostGoogle] }),
    );
    renderWithProviders(<ConnectedAccountsCard />);
    const google = await screen.findByRole('region', { name: 'Google accounts' });
    const shops = screen.getByRole('region', { name: 'Shopify shops' });
    const facebook = screen.getByRole('region', { name: 'Facebook accounts' });
    // Shopify first, then Google, then Meta, whatever order the server sends.
    expect(shops.compareDocumentPosition(google) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(google.compareDocumentPosition(facebook) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const [working, lost] = within(google).getAllByRole('listitem');
    expect(working).toHaveTextContent('merchant@vigil.test');
    expect(working).toHaveTextContent('Used by 1 monitor');
    expect(working).not.toHaveTextContent(googleConnection.account);
    expect(lost).toHaveTextContent('Google no longer accepts Vigil’s access to the account.');
    expect(within(lost!).getByRole('button', { name: 'Reconnect ads@vigil.test' })).toBeInTheDocument();
    expect(within(facebook).getByText('Demo Merchant')).toBeInTheDocument();
    expect(within(facebook).getByRole('button', { name: 'Disconnect Demo Merchant' })).toBeInTheDocument();
  });

  it('warns a week before Meta’s access ends, with Reconnect for the Facebook account', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    vi.mocked(getConnections).mockResolvedValue(
      ok({ list: [{ ...metaConnection, expiresAt: '2026-05-01T00:00:00.000Z' }] }),
    );
    vi.mocked(getOAuthUri).mockResolvedValue(
      ok({
        url: 'https://www.facebook.com/v23.0/dialog/oauth?client_id=x',
        provider: 'meta' as const,
        account: null,
        expiresAt: '2026-04-27T12:10:00Z',
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ConnectedAccountsCard />, { url: '/app/settings' });
    const facebook = await screen.findByRole('region', { name: 'Facebook accounts' });
    expect(
      within(facebook).getByText('Meta access ends on May 1, 2026. Reconnect to keep watching.'),
    ).toBeInTheDocument();
    await user.click(within(facebook).getByRole('button', { name: 'Reconnect Demo Merchant' }));
    expect(getOAuthUri).toHaveBeenCalledWith({ service: 'facebook_ads' });
    await waitFor(() => expect(assign).toHaveBeenCalled());
    assign.mockRestore();
  });

  it('says nothing about an end weeks away', async () => {
    vi.mocked(getConnections).mockResolvedValue(
      ok({ list: [{ ...metaConnection, expiresAt: '2026-06-20T00:00:00.000Z' }] }),
    );
    renderWithProviders(<ConnectedAccountsCard />);
    await screen.findByText('Demo Merchant');
    expect(screen.queryByText(/access ends on/)).not.toBeInTheDocument();
  });

  it('disconnects a shop after a confirmation that explains what happens to its monitors', async () => {
    vi.useRealTimers();
    vi.mocked(getConnections).mockResolvedValue(ok({ list: [hoodies] }));
    vi.mocked(disconnectConnection).mockResolvedValue(
      ok({ ...hoodies, status: 'disconnected', statusReason: 'You disconnected the shop in Vigil.' }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ConnectedAccountsCard />);
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

  it('disconnects a Google account with words for an account', async () => {
    vi.useRealTimers();
    vi.mocked(getConnections).mockResolvedValue(ok({ list: [googleConnection] }));
    const user = userEvent.setup();
    renderWithProviders(<ConnectedAccountsCard />);
    await user.click(await screen.findByRole('button', { name: 'Disconnect merchant@vigil.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect merchant@vigil.test?' });
    expect(dialog).toHaveTextContent('until you reconnect the Google account.');
    expect(within(dialog).getByRole('button', { name: 'Disconnect account' })).toBeInTheDocument();
  });

  it('points to a new monitor when nothing is connected', async () => {
    vi.mocked(getConnections).mockResolvedValue(ok({ list: [] }));
    renderWithProviders(<ConnectedAccountsCard />);
    expect(await screen.findByText(/No account is connected yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New monitor' })).toHaveAttribute('href', '/app/monitor_create');
  });

  it('offers a retry when the accounts cannot be loaded', async () => {
    vi.mocked(getConnections)
      .mockResolvedValueOnce(failed())
      .mockResolvedValue(ok({ list: [hoodies] }));
    const user = userEvent.setup();
    renderWithProviders(<ConnectedAccountsCard />);
    expect(await screen.findByText('Your connected accounts could not be loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hoodies')).toBeInTheDocument();
  });
});
