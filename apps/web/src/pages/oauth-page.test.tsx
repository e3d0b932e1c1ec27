import { StrictMode } from 'react';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, Where } from '../test/render.tsx';
import { aConnection, failed, googleConnection, metaConnection, ok } from '../test/monitor-fixtures.ts';
import { bindConnection } from '../features/monitors/api/bind-connection.ts';
import { login } from '../features/auth/api/login.ts';
import { readOAuthReturn, saveOAuthReturn } from '../features/monitors/connect/oauth-return.ts';
import { getToken } from '../lib/session.ts';
import OAuthPage from './oauth-page.tsx';

vi.mock('../features/monitors/api/bind-connection.ts', () => ({ bindConnection: vi.fn() }));
vi.mock('../features/auth/api/login.ts', () => ({ login: vi.fn() }));

/** A Shopify return; each test uses its own code, as the page never posts one code twice. */
function shopifyReturn(code: string) {
  return {
    code,
    hmac: 'a1b2c3',
    host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvaG9vZGllcw',
    shop: 'hoodies.myshopify.com',
    state: 'state-1',
    timestamp: '1750000000',
  };
}

function renderAt(params: Record<string, string>) {
  const url = `/app/oauth?${new URLSearchParams(params).toString()}`;
  return renderWithProviders(
    <StrictMode>
      <Routes>
        <Route path="/oauth" element={<OAuthPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </StrictMode>,
    { url },
  );
}

const heldKey = 'held-key-0123456789abcdef';
const redirect = encodeURIComponent(JSON.stringify({ auth: 'false', key: heldKey }));
const held = ok({
  status: 'held' as const,
  key: heldKey,
  account: 'hoodies.myshopify.com',
  expiresAt: '2026-03-10T11:10:00Z',
});

beforeEach(() => {
  vi.mocked(bindConnection).mockReset();
  vi.mocked(login).mockReset();
});

describe('/oauth after connecting a shop', () => {
  it('posts every parameter to bind once, then returns to the saved form with the shop connected', async () => {
    document.cookie = 'token=t1; path=/';
    saveOAuthReturn({ returnTo: '/monitor_edit?monitorId=m1', account: 'hoodies.myshopify.com' });
    vi.mocked(bindConnection).mockResolvedValue(
      ok({ status: 'bound' as const, connection: aConnection(), monitorId: null }),
    );
    const params = shopifyReturn('code-bound');
    const view = renderAt(params);
    expect(screen.getByRole('heading', { name: 'Connecting your shop' })).toBeInTheDocument();
    expect(await screen.findByTestId('where')).toHaveTextContent('/monitor_edit?monitorId=m1');
    view.rerender(<OAuthPage />);
    expect(bindConnection).toHaveBeenCalledExactlyOnceWith({ params });
    expect(login).not.toHaveBeenCalled();
    expect(await screen.findByText('Connected hoodies.myshopify.com')).toBeInTheDocument();
    expect(readOAuthReturn()?.connection).toEqual(aConnection());
  });

  it('goes to a new monitor with the shop when nothing was saved', async () => {
    document.cookie = 'token=t1; path=/';
    vi.mocked(bindConnection).mockResolvedValue(
      ok({ status: 'bound' as const, connection: aConnection(), monitorId: null }),
    );
    renderAt(shopifyReturn('code-unsaved'));
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/monitor_create$/);
    expect(readOAuthReturn()).toMatchObject({ returnTo: '/monitor_create', connection: aConnection() });
  });

  it('takes a held install to sign-in, carrying the key, when signed out', async () => {
    vi.mocked(bindConnection).mockResolvedValue(held);
    renderAt(shopifyReturn('code-held-out'));
    expect(await screen.findByTestId('where')).toHaveTextContent(`/login?redirect=${redirect}`);
  });

  it('takes a held install to a new monitor, carrying the key, when signed in', async () => {
    document.cookie = 'token=t1; path=/';
    vi.mocked(bindConnection).mockResolvedValue(held);
    renderAt(shopifyReturn('code-held-in'));
    expect(await screen.findByTestId('where')).toHaveTextContent(`/monitor_create?redirect=${redirect}`);
  });

  it("shows the server's refusal with a way back to the monitor form", async () => {
    saveOAuthReturn({ returnTo: '/monitor_create' });
    vi.mocked(bindConnection).mockResolvedValue(
      failed(400, 'This connection link has expired. Connect again.'),
    );
    renderAt(shopifyReturn('code-expired'));
    expect(await screen.findByText('This connection link has expired. Connect again.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'We could not connect your shop' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the monitor form' })).toHaveAttribute(
      'href',
      '/app/monitor_create',
    );
  });
});

describe('/oauth after connecting a Google or Facebook account', () => {
  it('names Google while connecting, then returns to the saved form with the account connected', async () => {
    document.cookie = 'token=t1; path=/';
    saveOAuthReturn({ returnTo: '/monitor_create', provider: 'google' });
    vi.mocked(bindConnection).mockResolvedValue(
      ok({ status: 'bound' as const, connection: googleConnection, monitorId: null }),
    );
    const params = {
      code: 'google-bind-code',
      state: 'bind-g1',
      scope: 'https://www.googleapis.com/auth/adwords',
    };
    renderAt(params);
    expect(screen.getByRole('heading', { name: 'Connecting your Google account' })).toBeInTheDocument();
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/monitor_create$/);
    expect(bindConnection).toHaveBeenCalledExactlyOnceWith({ params });
    expect(login).not.toHaveBeenCalled();
    expect(await screen.findByText('Connected Google account merchant@vigil.test')).toBeInTheDocument();
    expect(readOAuthReturn()?.connection).toEqual(googleConnection);
  });

  it('ignores the #_=_ Meta appends, and names Facebook in the notice', async () => {
    document.cookie = 'token=t1; path=/';
    saveOAuthReturn({ returnTo: '/monitor_edit?monitorId=m9', provider: 'meta' });
    vi.mocked(bindConnection).mockResolvedValue(
      ok({ status: 'bound' as const, connection: metaConnection, monitorId: 'm9' }),
    );
    renderWithProviders(
      <Routes>
        <Route path="/oauth" element={<OAuthPage />} />
        <Route path="*" element={<Where />} />
      </Routes>,
      { url: '/app/oauth?code=meta-bind-code&state=bind-m1#_=_' },
    );
    expect(screen.getByRole('heading', { name: 'Connecting your Facebook account' })).toBeInTheDocument();
    expect(await screen.findByTestId('where')).toHaveTextContent('/monitor_edit?monitorId=m9');
    expect(bindConnection).toHaveBeenCalledExactlyOnceWith({
      params: { code: 'meta-bind-code', state: 'bind-m1' },
    });
    expect(await screen.findByText('Connected Facebook account Demo Merchant')).toBeInTheDocument();
  });

  it('says a cancelled Meta connection was cancelled, without binding', async () => {
    saveOAuthReturn({ returnTo: '/monitor_create', provider: 'meta' });
    renderAt({
      error: 'access_denied',
      error_reason: 'user_denied',
      error_description: 'Permissions error',
      state: 'bind-m2',
    });
    expect(
      await screen.findByRole('heading', { name: 'We could not connect your Facebook account' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Connecting your Facebook account was cancelled, or access was not granted.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the monitor form' })).toHaveAttribute(
      'href',
      '/app/monitor_create',
    );
    expect(bindConnection).not.toHaveBeenCalled();
    expect(login).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of a Google binding, naming Google", async () => {
    saveOAuthReturn({ returnTo: '/settings', provider: 'google' });
    vi.mocked(bindConnection).mockResolvedValue(failed(400, 'This connection link has expired.'));
    renderAt({ code: 'google-expired', state: 'bind-g2' });
    expect(
      await screen.findByRole('heading', { name: 'We could not connect your Google account' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/app/settings');
  });
});

describe('/oauth after a Google sign-in', () => {
  it('exchanges the code for a session and continues to the monitors, never binding', async () => {
    vi.mocked(login).mockResolvedValue(ok({ token: 'session-token', monitor_key: 'k' }));
    renderAt({ code: 'google-code', state: 'google-state' });
    expect(screen.getByRole('heading', { name: 'Signing you in' })).toBeInTheDocument();
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/monitor$/);
    expect(login).toHaveBeenCalledExactlyOnceWith({ code: 'google-code', state: 'google-state' });
    expect(bindConnection).not.toHaveBeenCalled();
    expect(getToken()).toBe('session-token');
  });

  it('says when the answer from Google is missing', async () => {
    renderAt({ state: 'only-state' });
    expect(await screen.findByText(/the answer from Google is missing/)).toBeInTheDocument();
    await waitFor(() => expect(login).not.toHaveBeenCalled());
  });
});
