import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { register } from '../api/register.ts';
import { RegisterForm } from './register-form.tsx';

vi.mock('../api/register.ts', () => ({ register: vi.fn() }));
const registerCall = vi.mocked(register);

function rules() {
  const list = screen.getByRole('list', { name: 'Password rules' });
  return Object.fromEntries(
    within(list)
      .getAllByRole('listitem')
      .map((item) => [item.getAttribute('data-rule'), item.getAttribute('data-met') === 'true']),
  );
}

beforeEach(() => registerCall.mockReset());

describe('RegisterForm', () => {
  it('ticks each password rule live as it is met', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RegisterForm onRegistered={vi.fn()} />);
    expect(rules()).toEqual({ length: false, letter: false, digit: false, max: true });

    const password = screen.getByLabelText(/^Password/, { selector: 'input' });
    await user.type(password, 'abc');
    expect(rules()).toEqual({ length: false, letter: true, digit: false, max: true });

    await user.type(password, '12345');
    expect(rules()).toEqual({ length: true, letter: true, digit: true, max: true });
    expect(
      within(screen.getByRole('list', { name: 'Password rules' })).getByText('At least one number')
        .parentElement,
    ).toHaveTextContent('(met)');

    await user.clear(password);
    expect(rules()).toEqual({ length: false, letter: false, digit: false, max: true });
  });

  it('shows the rules under the password field, announced to screen readers', () => {
    renderWithProviders(<RegisterForm onRegistered={vi.fn()} />);
    const list = screen.getByRole('list', { name: 'Password rules' });
    expect(list).toHaveAttribute('aria-live', 'polite');
    const describedBy =
      screen.getByLabelText(/^Password/, { selector: 'input' }).getAttribute('aria-describedby') ?? '';
    const descriptions = describedBy.split(' ').map((id) => document.getElementById(id));
    expect(descriptions.some((element) => element?.contains(list))).toBe(true);
  });

  it('does not submit a password that breaks a rule, or a confirmation that differs', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RegisterForm onRegistered={vi.fn()} />);
    await user.type(screen.getByLabelText(/^Email/), 'owner@shop.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'onlyletters');
    await user.type(screen.getByLabelText(/^Confirm password/), 'different1');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The password does not meet all the rules below.')).toBeInTheDocument();
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
    expect(registerCall).not.toHaveBeenCalled();
  });

  it('registers with a normalised email and hands the session on', async () => {
    const user = userEvent.setup();
    const onRegistered = vi.fn();
    registerCall.mockResolvedValue({ ok: true, status: 200, data: { token: 't', monitor_key: 'k' } });
    renderWithProviders(<RegisterForm onRegistered={onRegistered} />);
    await user.type(screen.getByLabelText(/^Email/), ' Owner@Shop.com ');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'watchful42');
    await user.type(screen.getByLabelText(/^Confirm password/), 'watchful42');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(registerCall).toHaveBeenCalledExactlyOnceWith({ email: 'owner@shop.com', password: 'watchful42' });
    expect(onRegistered).toHaveBeenCalledWith({ token: 't', monitor_key: 'k' });
  });

  it('stays on the form when the server refuses (the client already showed the error)', async () => {
    const user = userEvent.setup();
    const onRegistered = vi.fn();
    registerCall.mockResolvedValue({
      ok: false,
      status: 409,
      data: undefined,
      code: 'CONFLICT',
      message: 'An account with this email exists.',
    });
    renderWithProviders(<RegisterForm onRegistered={onRegistered} />);
    await user.type(screen.getByLabelText(/^Email/), 'owner@shop.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'watchful42');
    await user.type(screen.getByLabelText(/^Confirm password/), 'watchful42');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(onRegistered).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });
});
