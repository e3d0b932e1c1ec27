import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoPlaceholderWords } from '../test/no-placeholders.ts';
import { answerMonitorFormCalls, renderMonitorFormAt, signInOn } from '../test/monitor-form-pages.tsx';
import MonitorCreatePage from './monitor-create-page.tsx';
import {
  aConnection,
  aProductsPage,
  aShopifyMonitor,
  aShopifyProduct,
  catalogue,
  connectionId,
  failed,
  ok,
  productId,
} from '../test/monitor-fixtures.ts';
import { getMonitorService } from '../features/monitors/api/get-monitor-service.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { createMonitor } from '../features/monitors/api/create-monitor.ts';
import { updateMonitor } from '../features/monitors/api/update-monitor.ts';
import { getMonitorInfo } from '../features/monitors/api/get-monitor-info.ts';
import { getConnections } from '../features/monitors/api/get-connections.ts';
import { getShopifyProducts } from '../features/monitors/api/get-shopify-products.ts';
import { getOAuthUri } from '../features/monitors/api/get-oauth-uri.ts';
import { bindConnection } from '../features/monitors/api/bind-connection.ts';
import { initialFormValues } from '../features/monitors/monitor-form.ts';
import {
  OAUTH_RETURN_KEY,
  readOAuthReturn,
  markConnected,
  saveOAuthReturn,
} from '../features/monitors/connect/oauth-return.ts';
import { PRODUCTS_NEEDED_MESSAGE } from '../features/monitors/services/shopify/index.ts';

vi.mock('../features/monitors/api/get-monitor-service.ts', () => ({ getMonitorService: vi.fn() }));
vi.mock('../features/plans/api/get-plans.ts', () => ({ getPlans: vi.fn() }));
vi.mock('../features/monitors/api/create-monitor.ts', () => ({ createMonitor: vi.fn() }));
vi.mock('../features/monitors/api/update-monitor.ts', () => ({ updateMonitor: vi.fn() }));
vi.mock('../features/monitors/api/get-monitor-info.ts', () => ({ getMonitorInfo: vi.fn() }));
vi.mock('../features/monitors/api/get-verified-contacts.ts', () => ({ getVerifiedContacts: vi.fn() }));
vi.mock('../features/monitors/api/get-connections.ts', () => ({ getConnections: vi.fn() }));
vi.mock('../features/monitors/api/get-shopify-products.ts', () => ({ getShopifyProducts: vi.fn() }));
vi.mock('../features/monitors/api/get-oauth-uri.ts', () => ({ getOAuthUri: vi.fn() }));
vi.mock('../features/monitors/api/bind-connection.ts', () => ({ bindConnection: vi.fn() }));

// The whole form renders in happy-dom for each step; under a full parallel run that can pass 5 s.
vi.setConfig({ testTimeout: 20_000 });

const hoodies = aConnection();
const lost = aConnection({
  connectionId: connectionId(2),
  account: 'socks.myshopify.com',
  name: 'Socks',
  status: 'lost',
  statusReason: 'The Vigil app was uninstalled from the shop.',
  monitors: 2,
});
const created = aShopifyMonitor({ monitorId: '66666666-6666-4666-8666-666666666666' });
const pendingRedirect = (key: string) => encodeURIComponent(JSON.stringify({ auth: 'false', key }));

const renderAt = renderMonitorFormAt;

beforeEach(() => {
  for (const fn of [
    getMonitorService,
    getPlans,
    createMonitor,
    updateMonitor,
    getMonitorInfo,
    getConnections,
    getShopifyProducts,
    getOAuthUri,
    bindConnection,
  ]) {
    vi.mocked(fn).mockReset();
  }
  answerMonitorFormCalls();
  signInOn('Free');
  vi.mocked(getConnections).mockResolvedValue(ok({ list: [hoodies, lost] }));
  vi.mocked(getShopifyProducts).mockResolvedValue(
    ok(aProductsPage([aShopifyProduct(1), aShopifyProduct(2)], { hasNextPage: true })),
  );
});

async function chooseShopify(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('radio', { name: /Shopify shop/ }));
}

describe('/monitor_create, Shopify', () => {
  it('creates a monitor on a connected shop with the chosen products', async () => {
    vi.mocked(createMonitor).mockResolvedValue(ok(created));
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await chooseShopify(user);
    await user.click(await screen.findByRole('radio', { name: /Hoodies/ }));
    await user.click(await screen.findByRole('checkbox', { name: 'Hoodie 2' }));
    expect(getShopifyProducts).toHaveBeenCalledWith(
      { connectionId: hoodies.connectionId },
      expect.any(AbortSignal),
    );
    await user.click(screen.getByRole('textbox', { name: /^Name/ }));
    await user.paste('Hoodies shop');
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    await waitFor(() => expect(createMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(createMonitor).mock.calls[0]![0]).toMatchObject({
      name: 'Hoodies shop',
      service: 'shopify',
      target: { connectionId: hoodies.connectionId, productIds: [productId(2)] },
      conditions: {
        product_out_of_stock: { enabled: true, threshold: 0 },
        app_uninstalled: { enabled: true },
      },
    });
  });

  it('asks for a shop, and for a product while a product check is on', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await chooseShopify(user);
    await screen.findByRole('radio', { name: /Hoodies/ });
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await screen.findByText('Choose the shop to watch, or connect one.')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Hoodies/ }));
    await user.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await screen.findByText(PRODUCTS_NEEDED_MESSAGE)).toBeInTheDocument();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it('shows a lost shop with its reason and a Reconnect button', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await chooseShopify(user);
    const socks = await screen.findByRole('group', { name: 'Socks: connection lost' });
    expect(within(socks).getByText('Connection lost')).toBeInTheDocument();
    expect(within(socks).getByText('The Vigil app was uninstalled from the shop.')).toBeInTheDocument();
    expect(within(socks).getByRole('button', { name: 'Reconnect socks.myshopify.com' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Socks/ })).not.toBeInTheDocument();
    expectNoPlaceholderWords(document.body.textContent);
  });

  it('connects a new shop: saves the form and where to come back, then leaves for Shopify', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    vi.mocked(getOAuthUri).mockResolvedValue(
      ok({
        url: 'https://shopify.example/admin/oauth/authorize?client_id=x',
        provider: 'shopify' as const,
        account: 'new-shop.myshopify.com',
        expiresAt: '2026-03-10T11:10:00Z',
      }),
    );
    const redirect = pendingRedirect('no-such-key-but-kept-0001');
    vi.mocked(bindConnection).mockResolvedValue(failed(400, 'That connection has expired.'));
    const user = userEvent.setup({ delay: null });
    renderAt(`/app/monitor_create?redirect=${redirect}`);
    await chooseShopify(user);
    await user.click(await screen.findByRole('textbox', { name: /^Name/ }));
    await user.paste('New shop');
    await user.click(screen.getByRole('textbox', { name: /Connect another shop/ }));
    await user.paste('new-shop.com');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://shopify.example/admin/oauth/authorize?client_id=x'),
    );
    expect(getOAuthUri).toHaveBeenCalledWith({ service: 'shopify', shop: 'new-shop.com' });
    const saved = readOAuthReturn();
    expect(saved?.returnTo).toBe(`/monitor_create?redirect=${redirect}`);
    expect(saved?.values).toMatchObject({ service: 'shopify', name: 'New shop' });
    expect(screen.getByRole('button', { name: 'Connect' })).toHaveAttribute('data-loading', 'true');
    assign.mockRestore();
  });

  it("shows the server's refusal of the typed shop beside the field", async () => {
    vi.mocked(getOAuthUri).mockResolvedValue(failed(400, 'No Shopify shop answers at nope.example.'));
    const user = userEvent.setup({ delay: null });
    renderAt('/app/monitor_create');
    await chooseShopify(user);
    await user.click(await screen.findByRole('textbox', { name: /Connect another shop/ }));
    await user.paste('nope.example');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('No Shopify shop answers at nope.example.')).toBeInTheDocument();
    expect(window.sessionStorage.getItem(OAUTH_RETURN_KEY)).toBeNull();
    expect(createMonitor).not.toHaveBeenCalled();
  });

  it('comes back from Shopify with the form as it was and the new shop chosen', async () => {
    const values = { ...initialFormValues({ catalogue, plan: null }), name: 'Before leaving' };
    saveOAuthReturn({ returnTo: '/monitor_create', values });
    markConnected(hoodies, '/monitor_create');
    renderAt('/app/monitor_create');
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveValue('Before leaving');
    expect(screen.getByRole('radio', { name: /Shopify shop/ })).toHaveAttribute('aria-checked', 'true');
    expect(await screen.findByRole('radio', { name: /Hoodies/ })).toHaveAttribute('aria-checked', 'true');
    expect(await screen.findByRole('checkbox', { name: 'Hoodie 1' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(OAUTH_RETURN_KEY)).toBeNull();
  });
});

describe('/monitor_create with a pending binding', () => {
  it('claims the key once and opens the form on that shop, keeping redirect', async () => {
    const key = 'held-key-claimed-000001';
    vi.mocked(bindConnection).mockResolvedValue(
      ok({ status: 'bound' as const, connection: hoodies, monitorId: null }),
    );
    const view = renderAt(`/app/monitor_create?redirect=${pendingRedirect(key)}`);
    expect(
      await screen.findByText('hoodies.myshopify.com is connected: choose the products to watch'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: /Hoodies/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: /Shopify shop/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('where')).toHaveTextContent(`/monitor_create?redirect=${pendingRedirect(key)}`);
    expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute(
      'href',
      `/app/pricing?redirect=${pendingRedirect(key)}`,
    );
    view.rerender(<MonitorCreatePage />);
    expect(await screen.findByRole('radio', { name: /Hoodies/ })).toHaveAttribute('aria-checked', 'true');
    expect(bindConnection).toHaveBeenCalledExactlyOnceWith({ key });
  });

  it("shows the server's refusal and leaves the form usable", async () => {
    const key = 'held-key-expired-000002';
    vi.mocked(bindConnection).mockResolvedValue(
      failed(400, 'This shop connection has expired: install the app again from Shopify.'),
    );
    renderAt(`/app/monitor_create?redirect=${pendingRedirect(key)}`);
    expect(await screen.findByText('The shop could not be connected')).toBeInTheDocument();
    expect(
      screen.getByText(/^This shop connection has expired: install the app again from Shopify\./),
    ).toBeInTheDocument();
    // The form's answers render as transitions, so the form may follow the refusal in a later commit.
    expect(await screen.findByRole('radio', { name: /Website/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('textbox', { name: /^Name/ })).toBeEnabled();
    expect(bindConnection).toHaveBeenCalledTimes(1);
  });
});

describe('/monitor_edit, Shopify', () => {
  it("lists the monitor's shop through the monitor and keeps its products", async () => {
    const monitor = aShopifyMonitor();
    vi.mocked(getMonitorInfo).mockResolvedValue(ok(monitor));
    vi.mocked(updateMonitor).mockResolvedValue(ok(monitor));
    const user = userEvent.setup({ delay: null });
    renderAt(`/app/monitor_edit?monitorId=${monitor.monitorId}`);
    expect(await screen.findByRole('checkbox', { name: 'Hoodie 1' })).toBeChecked();
    expect(getShopifyProducts).toHaveBeenCalledWith(
      { monitorId: monitor.monitorId },
      expect.any(AbortSignal),
    );
    expect(screen.getByText('1 product chosen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(updateMonitor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(updateMonitor).mock.calls[0]![0]).toMatchObject({
      monitorId: monitor.monitorId,
      service: 'shopify',
      target: { connectionId: hoodies.connectionId, productIds: [productId(1)] },
    });
  });
});
