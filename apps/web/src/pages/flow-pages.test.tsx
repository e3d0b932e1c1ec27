import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '@vigil/contracts';
import { getUserInfo as getStoredUser, setUserInfo } from '../lib/session.ts';
import { renderWithProviders, Where } from '../test/render.tsx';
import { submitOnboarding } from '../features/user/api/submit-onboarding.ts';
import { forgetPassword } from '../features/auth/api/forget-password.ts';
import { login } from '../features/auth/api/login.ts';
import { register } from '../features/auth/api/register.ts';
import LoginPage from './login-page.tsx';
import RegisterPage from './register-page.tsx';
import OnboardingPage from './onboarding-page.tsx';

vi.mock('../features/user/api/submit-onboarding.ts', () => ({ submitOnboarding: vi.fn() }));
vi.mock('../features/auth/api/forget-password.ts', () => ({ forgetPassword: vi.fn() }));
vi.mock('../features/auth/api/login.ts', () => ({ login: vi.fn() }));
vi.mock('../features/auth/api/register.ts', () => ({ register: vi.fn() }));

const newUser: UserInfo = {
  email: 'owner@shop.com',
  industry: null,
  telPhone: null,
  contactEmail: null,
  plan: 'Free',
  planExpiresin: '0',
};
const binding = encodeURIComponent(JSON.stringify({ auth: 'false', key: 'shop-42' }));

function renderAt(url: string, path: string, page: React.ReactElement) {
  return renderWithProviders(
    <Routes>
      <Route path={path} element={page} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url },
  );
}

beforeEach(() => {
  vi.mocked(submitOnboarding).mockReset();
  vi.mocked(forgetPassword).mockReset();
  vi.mocked(login).mockReset();
  vi.mocked(register).mockReset();
});

describe('onboarding page', () => {
  it('asks for a phone or an email before submitting', async () => {
    setUserInfo(newUser);
    const user = userEvent.setup();
    renderAt('/app/onboarding', '/onboarding', <OnboardingPage />);
    await user.click(screen.getByLabelText(/^Industry/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Pets' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/Give a contact phone number or a contact email/)).toBeInTheDocument();
    expect(submitOnboarding).not.toHaveBeenCalled();
  });

  it('stores the phone in E.164, updates userInfo and continues to pricing keeping redirect', async () => {
    setUserInfo(newUser);
    const saved = { ...newUser, industry: 'Pets', telPhone: '+12015550123' };
    vi.mocked(submitOnboarding).mockResolvedValue({ ok: true, status: 200, data: saved });
    const user = userEvent.setup();
    renderAt(`/app/onboarding?redirect=${binding}`, '/onboarding', <OnboardingPage />);
    await user.click(screen.getByLabelText(/^Industry/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Pets' }));
    await user.type(screen.getByRole('textbox', { name: /Contact phone/ }), '(201) 555-0123');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(submitOnboarding).toHaveBeenCalledWith({
      industry: 'Pets',
      telPhone: '+12015550123',
      contactEmail: null,
    });
    expect(await screen.findByTestId('where')).toHaveTextContent(`/pricing?redirect=${binding}`);
    expect(getStoredUser()).toEqual(saved);
  });
});

describe('login page', () => {
  it('opens the reset step from the email link, with the email filled in', async () => {
    renderAt('/app/login?reset=1&email=owner%40shop.com', '/login', <LoginPage />);
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveValue('owner@shop.com');
    expect(screen.getByRole('textbox', { name: /6-digit code/ })).toBeInTheDocument();
  });

  it('asks for a code from "Forgot password?" and then shows the code step', async () => {
    vi.mocked(forgetPassword).mockResolvedValue({
      ok: true,
      status: 200,
      data: { message: 'If an account exists for owner@shop.com, a code is on its way.' },
    });
    const user = userEvent.setup();
    renderAt('/app/login', '/login', <LoginPage />);
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'owner@shop.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveValue('owner@shop.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(forgetPassword).toHaveBeenCalledWith('owner@shop.com');
    expect(await screen.findByText(/a code is on its way/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Password rules' })).toBeInTheDocument();
  });

  it('links to registration keeping redirect, and offers Google sign-in', () => {
    renderAt(`/app/login?redirect=${binding}`, '/login', <LoginPage />);
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      `/app/register?redirect=${binding}`,
    );
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
  });
});

describe('a pending binding through sign-in', () => {
  it('signing in carries redirect on, so the startup rules reach /monitor_create', async () => {
    vi.mocked(login).mockResolvedValue({ ok: true, status: 200, data: { token: 't', monitor_key: 'k' } });
    const user = userEvent.setup();
    renderAt(`/app/login?redirect=${binding}`, '/login', <LoginPage />);
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'owner@shop.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'watchful42');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(`/monitor?redirect=${binding}`);
  });

  it('registering carries redirect on too', async () => {
    vi.mocked(register).mockResolvedValue({ ok: true, status: 200, data: { token: 't', monitor_key: 'k' } });
    const user = userEvent.setup();
    renderAt(`/app/register?redirect=${binding}`, '/register', <RegisterPage />);
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'owner@shop.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'watchful42');
    await user.type(screen.getByLabelText(/^Confirm password/), 'watchful42');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(`/monitor?redirect=${binding}`);
  });
});
