import { act, render, screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from './providers.tsx';

// Mantine's toasts' container: one region per position, in a portal.
const container = () => document.querySelector('[data-position="bottom-right"]');

describe('Providers: the toasts', () => {
  afterEach(() => {
    act(() => notifications.clean());
  });

  it('load their container with the first toast, show it, and keep the container after it has gone', async () => {
    // The container's module loaded already, so a container rendered too soon would show within the wait below
    // (it took 0.35 s here).
    await import('./toasts.ts');
    render(
      <Providers>
        <p>A page</p>
      </Providers>,
    );
    expect(screen.getByText('A page')).toBeInTheDocument();
    // Nothing shown yet: no container.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(container()).toBeNull();

    act(() => {
      notifications.show({ id: 'saved', message: 'Settings saved' });
    });
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(container()).not.toBeNull();

    act(() => notifications.hide('saved'));
    act(() => {
      notifications.show({ message: 'Monitor paused' });
    });
    expect(await screen.findByText('Monitor paused')).toBeInTheDocument();
    expect(container()).not.toBeNull();
  });
});
