import { screen } from '@testing-library/react';
import Cookies from 'js-cookie';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '@vigil/contracts';
import type { ApiResult } from '../lib/api-client.ts';
import { getUserInfo as getStoredUser, returnPath } from '../lib/session.ts';
import { renderWithProviders } from '../test/render.tsx';
import { getUserInfo, peekUserInfo } from '../features/user/api/get-user-info.ts';
import { RootLayout } from './root-layout.tsx';
import StartupGate from './startup-gate.tsx';

vi.mock('../features/user/api/get-user-info.ts', () => ({ getUserInfo: vi.fn(), peekUserInfo: vi.fn() }));
const fetchUser = vi.mocked(getUserInfo);
const earlyUser = vi.mocked(peekUserInfo);

const NOW = Math.floor(Date.now() / 1000);
const ready: UserInfo = {
  email: 'owner@shop.com',
  industry: 'Pets',
  telPhone: '+12015550123',
  contactEmail: null,
  plan: 'Free',
  planExpiresin: NOW + 86_400,
};
const binding = encodeURIComponent(JSON.stringify({ auth: 'false', key: 'shop-42' }));

function answer(user: UserInfo): Promise<ApiResult<UserInfo>> {
  return Promise.resolve({ ok: true, status: 200, data: user });
}

function Probe() {
  const { pathname, search } = useLocation();
  return <p data-testid="page">{`${pathname}${search}`}</p>;
}

function renderGate(url: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/login" element={<p data-testid="login">{'login'}</p>} />
      <Route
        path="*"
        element={
          <StartupGate>
            <Probe />
          </StartupGate>
        }
      />
    </Routes>,
    { url },
  );
}

beforeEach(() => {
  fetchUser.mockReset();
  earlyUser.mockReset();
  sessionStorage.clear();
});

describe('StartupGate', () => {
  it('sends a private route without a token to /login, without fetching', async () => {
    renderGate('/app/settings');
    expect(await screen.findByTestId('login')).toBeInTheDocument();
    expect(fetchUser).not.toHaveBeenCalled();
  });

  it('remembers the page a signed-out person opened, and forgets it once they reach it', async () => {
    renderGate('/app/alerts?incident=42');
    expect(await screen.findByTestId('login')).toBeInTheDocument();
    expect(returnPath()).toBe('/alerts?incident=42');

    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer(ready));
    renderGate('/app/alerts?incident=42');
    expect(await screen.findByTestId('page')).toHaveTextContent('/alerts?incident=42');
    expect(returnPath()).toBeNull();
  });

  it('does not remember the monitors, the root or a path that leaves the app', async () => {
    for (const url of ['/app/monitor', '/app/', '/app//evil.example/x']) {
      const { unmount } = renderGate(url);
      expect(await screen.findByTestId('login')).toBeInTheDocument();
      expect(returnPath()).toBeNull();
      unmount();
    }
  });

  it('shows only a full-height spinner while the user loads', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(new Promise(() => {}));
    renderGate('/app/monitor');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading your account');
    expect(screen.queryByTestId('page')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('stores the fetched user and shows the page inside the shell', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer(ready));
    renderGate('/app/monitor');
    expect(await screen.findByTestId('page')).toHaveTextContent('/monitor');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(getStoredUser()).toEqual(ready);
    expect(fetchUser).toHaveBeenCalledOnce();
  });

  it('shows the page in the shell at once with a user whose early answer has come, and fetches nothing', () => {
    Cookies.set('token', 't', { path: '/' });
    earlyUser.mockReturnValue(ready);
    renderGate('/app/monitor');
    expect(screen.getByTestId('page')).toHaveTextContent('/monitor');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(getStoredUser()).toEqual(ready);
    expect(fetchUser).not.toHaveBeenCalled();
  });

  it('applies the startup rules to a user whose early answer has come', async () => {
    Cookies.set('token', 't', { path: '/' });
    earlyUser.mockReturnValue({ ...ready, industry: null });
    renderGate('/app/monitor');
    expect(await screen.findByTestId('page')).toHaveTextContent('/onboarding');
    expect(fetchUser).not.toHaveBeenCalled();
  });

  it('sends an incomplete user to /onboarding keeping redirect, once, without the shell', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer({ ...ready, industry: null }));
    renderGate(`/app/monitor?redirect=${binding}`);
    expect(await screen.findByTestId('page')).toHaveTextContent(`/onboarding?redirect=${binding}`);
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(fetchUser).toHaveBeenCalledOnce();
  });

  it('leaves the shell out on /pricing (a new Free user)', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer({ ...ready, planExpiresin: '0' }));
    renderGate('/app/monitor');
    expect(await screen.findByTestId('page')).toHaveTextContent('/pricing');
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByText('Setings')).toBeNull();
  });

  it('leaves the shell out on the payment outcome pages too', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer(ready));
    renderGate('/app/payment-success');
    expect(await screen.findByTestId('page')).toHaveTextContent('/payment-success');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('lets a new Free user wait on the payment pages for Stripe, instead of sending them to /pricing', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer({ ...ready, planExpiresin: '0' }));
    renderGate('/app/payment-success?order=ord_1');
    expect(await screen.findByTestId('page')).toHaveTextContent('/payment-success?order=ord_1');
  });

  it('still sends an incomplete user from the payment pages to /onboarding', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer({ ...ready, industry: null, planExpiresin: '0' }));
    renderGate('/app/payment-error?order=ord_1');
    expect(await screen.findByTestId('page')).toHaveTextContent(/^\/onboarding$/);
  });

  it('sends an ended period to /pricing?planExpiresin=… when AB_PRICING is set', async () => {
    Cookies.set('token', 't', { path: '/' });
    window.localStorage.setItem('AB_PRICING', '1');
    fetchUser.mockReturnValue(answer({ ...ready, planExpiresin: NOW - 60 }));
    renderGate('/app/alerts');
    expect(await screen.findByTestId('page')).toHaveTextContent(`/pricing?planExpiresin=${NOW - 60}`);
  });

  it('lets an ended period through without AB_PRICING', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer({ ...ready, planExpiresin: NOW - 60 }));
    renderGate('/app/alerts');
    expect(await screen.findByTestId('page')).toHaveTextContent('/alerts');
  });

  it('sends a pending binding to /monitor_create with the redirect parameter', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer(ready));
    renderGate(`/app/monitor?redirect=${binding}`);
    expect(await screen.findByTestId('page')).toHaveTextContent(`/monitor_create?redirect=${binding}`);
    expect(screen.getByRole('link', { name: 'Monitors' })).toHaveAttribute('aria-current', 'page');
  });

  const noAnswer: ApiResult<UserInfo> = {
    ok: false,
    status: 0,
    data: undefined,
    code: 'NETWORK_ERROR',
    message: 'unkow error',
  };

  it('asks again when the user fetch gets no answer, and keeps the session when the next try answers', async () => {
    // What a page sees when the browser stops its requests because the person is leaving it.
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockResolvedValueOnce(noAnswer).mockReturnValueOnce(answer(ready));
    renderGate('/app/monitor');
    expect(await screen.findByTestId('page', {}, { timeout: 4000 })).toHaveTextContent('/monitor');
    expect(Cookies.get('token')).toBe('t');
    expect(fetchUser.mock.calls.map((call) => call[1])).toEqual([{ quiet: true }, { quiet: true }]);
  });

  it('removes the token and goes to /login after three tries without an answer', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockResolvedValue(noAnswer);
    renderGate('/app/monitor');
    expect(await screen.findByTestId('login', {}, { timeout: 6000 })).toBeInTheDocument();
    expect(Cookies.get('token')).toBeUndefined();
    // The last try is not quiet: the client shows its error then.
    expect(fetchUser.mock.calls.map((call) => call[1])).toEqual([
      { quiet: true },
      { quiet: true },
      { quiet: false },
    ]);
  });

  it('removes the token and goes to /login when the user fetch fails', async () => {
    Cookies.set('token', 't', { path: '/' });
    Cookies.set('monitor_key', 'mk', { path: '/' });
    fetchUser.mockResolvedValue({
      ok: false,
      status: 500,
      data: undefined,
      code: 'INTERNAL',
      message: 'unkow error',
    });
    renderGate('/app/monitor');
    expect(await screen.findByTestId('login')).toBeInTheDocument();
    expect(Cookies.get('token')).toBeUndefined();
    // An answered failure is not asked again, and its message is shown.
    expect(fetchUser).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('unkow error')).toBeInTheDocument();
  });
});

describe('RootLayout', () => {
  function renderApp(url: string) {
    return renderWithProviders(
      <Routes>
        <Route path="/" element={<RootLayout />}>
          <Route path="login" element={<p data-testid="login">{'login'}</p>} />
          <Route path="*" element={<Probe />} />
        </Route>
      </Routes>,
      { url },
    );
  }

  it('shows public pages without a token or a fetch', async () => {
    renderApp('/app/login');
    expect(await screen.findByTestId('login')).toBeInTheDocument();
    expect(fetchUser).not.toHaveBeenCalled();
  });

  it('treats an unmatched route as private: to /login without a token', async () => {
    renderApp('/app/no-such-page');
    expect(await screen.findByTestId('login')).toBeInTheDocument();
  });

  it('treats an unmatched route as private: fetches the user with a token', async () => {
    Cookies.set('token', 't', { path: '/' });
    fetchUser.mockReturnValue(answer(ready));
    renderApp('/app/no-such-page');
    expect(await screen.findByTestId('page')).toHaveTextContent('/no-such-page');
    expect(fetchUser).toHaveBeenCalledOnce();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
