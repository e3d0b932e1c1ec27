import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { UserMenu } from './user-menu.tsx';

// A dropped connection: the menu's chunk fails to arrive twice (for the fetch started as the pointer comes to the
// button, and for the click's), then arrives.
const arrival = vi.hoisted(() => ({ fails: 2 }));
vi.mock('./account-menu.tsx', async (importOriginal) => {
  if (arrival.fails > 0) {
    arrival.fails -= 1;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  return importOriginal();
});

describe('UserMenu', () => {
  it('says so when the menu did not load, and loads it on the next click', async () => {
    renderWithProviders(<UserMenu email="owner@shop.com" onLogout={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Account menu for owner@shop.com' });

    await userEvent.click(button);
    expect(await screen.findByText(/The account menu did not load/)).toBeVisible();
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Account menu for owner@shop.com' }));
    expect(await screen.findByRole('menuitem', { name: 'Log out' })).toBeVisible();
  });
});
