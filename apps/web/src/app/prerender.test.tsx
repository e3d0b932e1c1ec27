import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login } from '../features/auth/api/login.ts';
import { getOidcAuthorizeUrl } from '../features/auth/api/oidc-authorize.ts';
import { adoptPrerenderedInputs, prerenderedPage } from '../lib/prerendered.ts';
import LoginPage from '../pages/login-page.tsx';
import { failed } from '../test/monitor-fixtures.ts';
import { renderWithProviders, Where } from '../test/render.tsx';
import { renderPrerenderedPage } from './prerender.tsx';

vi.mock('../features/auth/api/login.ts', () => ({ login: vi.fn() }));
vi.mock('../features/auth/api/oidc-authorize.ts', () => ({ getOidcAuthorizeUrl: vi.fn() }));

/** The page as login.html holds it, in the document as the browser shows it before the scripts have run. */
function showPrerendered(): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.dataset.prerendered = 'login';
  root.innerHTML = renderPrerenderedPage('login');
  document.body.append(root);
  return root;
}

/** The live app's login page rendered into `root`, replacing what is there, as main.tsx does. */
function goLive(root: HTMLElement) {
  renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url: '/app/login', container: root },
  );
}

const field = (root: HTMLElement, name: string) => {
  const input = root.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!input) throw new Error(`No input named ${name}`);
  return input;
};

beforeEach(() => {
  vi.mocked(login).mockReset();
  vi.mocked(getOidcAuthorizeUrl).mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('the prerendered login page', () => {
  it('is the sign-in page a visitor without a session sees, with nothing in it that submits', () => {
    const root = showPrerendered();
    const page = within(root);
    expect(page.getByRole('heading', { name: 'Sign in to Vigil' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/app/register');
    expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
    expect(field(root, 'email')).toHaveAttribute('autocomplete', 'email');
    expect(field(root, 'password')).toHaveAttribute('type', 'password');
    const signIn = page.getByRole('button', { name: 'Sign in' });
    expect(signIn).toHaveAttribute('type', 'button');
    expect(signIn).toHaveAttribute('data-prerendered-submit');
    expect(root.querySelector('[type="submit"]')).toBeNull();
    expect(prerenderedPage(root, '/login')).toBe('login');
    expect(prerenderedPage(root, '/register')).toBeNull();
  });

  it('hands what was typed, and the focus, to the live page that replaces it', () => {
    const root = showPrerendered();
    field(root, 'email').value = 'owner@shop.com';
    field(root, 'password').value = 'Sturdy-pass';
    field(root, 'password').focus();
    adoptPrerenderedInputs(root);
    // Typed while the live page was rendering, after the inputs were adopted.
    field(root, 'password').value = 'Sturdy-pass-42';

    goLive(root);

    expect(root.querySelector('[data-prerendered-submit]')).toBeNull();
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveValue('owner@shop.com');
    const password = screen.getByLabelText(/^Password/, { selector: 'input' });
    expect(password).toHaveValue('Sturdy-pass-42');
    expect(password).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute('type', 'submit');
    expect(login).not.toHaveBeenCalled();
  });

  it('makes a Sign in pressed before the page was live, once, with the typed values', async () => {
    vi.mocked(login).mockResolvedValue({ ok: true, status: 200, data: { token: 't', monitor_key: 'k' } });
    const root = showPrerendered();
    adoptPrerenderedInputs(root);
    field(root, 'email').value = 'owner@shop.com';
    field(root, 'password').value = 'Sturdy-pass-42';
    within(root).getByRole('button', { name: 'Sign in' }).click();
    within(root).getByRole('button', { name: 'Sign in' }).click();

    goLive(root);

    expect(await screen.findByTestId('where')).toHaveTextContent('/monitor');
    expect(login).toHaveBeenCalledTimes(1);
    expect(login).toHaveBeenCalledWith({ email: 'owner@shop.com', password: 'Sturdy-pass-42' });
  });

  it('leaves the focus alone when the person had left the field, and submits nothing unasked', async () => {
    const root = showPrerendered();
    adoptPrerenderedInputs(root);
    field(root, 'email').focus();
    field(root, 'email').value = 'owner@shop.com';
    field(root, 'email').blur();
    await Promise.resolve();

    goLive(root);

    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveValue('owner@shop.com');
    expect(screen.getByRole('textbox', { name: /^Email/ })).not.toHaveFocus();
    await waitFor(() => expect(screen.queryByTestId('where')).toBeNull());
    expect(login).not.toHaveBeenCalled();
  });

  it('starts a Sign in with Google pressed before the page was live, once it is', async () => {
    // The provider's answer fails, so the page stays where it is and shows the live button again.
    vi.mocked(getOidcAuthorizeUrl).mockResolvedValue(failed(503, 'Try again.'));
    const root = showPrerendered();
    adoptPrerenderedInputs(root);
    within(root).getByRole('button', { name: 'Sign in with Google' }).click();
    expect(getOidcAuthorizeUrl).not.toHaveBeenCalled();

    goLive(root);

    await waitFor(() => expect(getOidcAuthorizeUrl).toHaveBeenCalledTimes(1));
    expect(login).not.toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeEnabled();
    expect(getOidcAuthorizeUrl).toHaveBeenCalledTimes(1);
  });
});
