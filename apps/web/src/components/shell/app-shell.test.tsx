import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setUserInfo } from '../../lib/session.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { getMonitorSummary } from '../../features/monitors/api/get-monitor-summary.ts';
import { AppShell } from './app-shell.tsx';

vi.mock('../../features/monitors/api/get-monitor-summary.ts', () => ({ getMonitorSummary: vi.fn() }));

const user = {
  email: 'owner@shop.com',
  industry: 'Pets',
  telPhone: null,
  contactEmail: 'owner@shop.com',
  plan: 'Free',
  planExpiresin: 1_900_000_000,
};

function renderShell(url: string) {
  return renderWithProviders(
    <AppShell onLogout={vi.fn()}>
      <p>page content</p>
    </AppShell>,
    { url },
  );
}

function navLinks() {
  return within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
}

beforeEach(() => {
  vi.mocked(getMonitorSummary).mockResolvedValue({
    ok: true,
    status: 200,
    data: { down: 0, confirming: 0, openAlerts: 0 },
  });
});

describe('AppShell', () => {
  it('counts the monitors down in the tab title and the open alerts on the Alerts entry', async () => {
    vi.mocked(getMonitorSummary).mockResolvedValue({
      ok: true,
      status: 200,
      data: { down: 2, confirming: 1, openAlerts: 3 },
    });
    setUserInfo(user);
    const { unmount } = renderShell('/app/monitor');
    await waitFor(() => expect(document.title).toBe('(2 down) Vigil'));
    // Read as "Alerts 3 open": the count is part of the entry's name, not a bare number.
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(await nav.findByRole('link', { name: 'Alerts 3 open' })).toBeVisible();
    unmount();
    expect(document.title).toBe('Vigil');
  });

  it('shows no count when nothing needs attention', async () => {
    setUserInfo(user);
    renderShell('/app/monitor');
    await waitFor(() => expect(getMonitorSummary).toHaveBeenCalled());
    expect(document.title).toBe('Vigil');
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Alerts' }),
    ).toBeVisible();
  });

  it("lists Monitors, Alerts, Subscription and 'Setings', spelled as the spec spells it", () => {
    setUserInfo(user);
    renderShell('/app/monitor');
    expect(navLinks().map((link) => link.textContent)).toEqual([
      'Monitors',
      'Alerts',
      'Subscription',
      'Setings',
    ]);
    expect(screen.queryByRole('link', { name: 'Settings' })).toBeNull();
  });

  it('links each entry to its page under /app', () => {
    setUserInfo(user);
    renderShell('/app/monitor');
    expect(navLinks().map((link) => link.getAttribute('href'))).toEqual([
      '/app/monitor',
      '/app/alerts',
      '/app/pricing',
      '/app/settings',
    ]);
  });

  it.each([
    ['/app/monitor', 'Monitors'],
    ['/app/monitor_create', 'Monitors'],
    ['/app/monitor_edit', 'Monitors'],
    ['/app/alerts', 'Alerts'],
    ['/app/settings', 'Setings'],
  ])('on %s highlights %s only', (url, label) => {
    setUserInfo(user);
    renderShell(url);
    const current = navLinks().filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual([label]);
    expect(current[0]).toHaveAttribute('data-active');
  });

  it('highlights nothing on a path containing no segment', () => {
    setUserInfo(user);
    renderShell('/app/unknown');
    expect(navLinks().filter((link) => link.getAttribute('aria-current'))).toHaveLength(0);
  });

  it("shows the user's email on the avatar, and a logo linking to the app root", () => {
    setUserInfo(user);
    renderShell('/app/alerts');
    expect(screen.getByRole('button', { name: 'Account menu for owner@shop.com' })).toBeInTheDocument();
    expect(screen.getByText('owner@shop.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Vigil/ })).toHaveAttribute('href', '/app');
    expect(screen.getByText('page content')).toBeInTheDocument();
  });

  it('opens the account menu, whose code loads on demand, on the first click, and logs out from it', async () => {
    setUserInfo(user);
    const onLogout = vi.fn();
    renderWithProviders(
      <AppShell onLogout={onLogout}>
        <p>page content</p>
      </AppShell>,
      { url: '/app/alerts' },
    );
    const button = screen.getByRole('button', { name: 'Account menu for owner@shop.com' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    // Label in name (WCAG 2.5.3): what the button shows is part of what it is called, for voice control.
    expect(button.textContent?.trim()).toBe('owner@shop.com');
    expect(screen.queryByRole('menu')).toBeNull();
    await userEvent.click(button);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Signed in as owner@shop.com')).toBeVisible();
    expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/app/settings');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('closes the account menu on Escape pressed on its button, before the menu has taken the focus', async () => {
    setUserInfo(user);
    renderShell('/app/alerts');
    await userEvent.click(screen.getByRole('button', { name: 'Account menu for owner@shop.com' }));
    expect(await screen.findByRole('menu')).toBeVisible();
    // The menu's own button, which took the place of the one that fetched its code.
    const button = screen.getByRole('button', { name: 'Account menu for owner@shop.com' });
    expect(button).toHaveAttribute('aria-expanded', 'true');

    button.focus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('renders nothing without a stored user', () => {
    renderShell('/app/monitor');
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByText('page content')).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('main')).toBeNull();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});
