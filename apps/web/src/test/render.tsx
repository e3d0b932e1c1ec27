import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { MemoryRouter, useLocation } from 'react-router';
import { theme } from '../app/theme.ts';

interface Options extends Omit<RenderOptions, 'wrapper'> {
  /** The path as the browser shows it, including /app. */
  url?: string;
}

/** Renders inside the app's Mantine theme and a router whose location is `url`. */
export function renderWithProviders(ui: ReactElement, { url = '/app/', ...options }: Options = {}) {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <MantineProvider theme={theme} env="test">
        <Notifications />
        <MemoryRouter basename="/app" initialEntries={[url]}>
          {children}
        </MemoryRouter>
      </MantineProvider>
    );
  }
  return render(ui, { wrapper: Wrapper, ...options });
}

/** Shows where the router is (path and query, without /app), for tests that follow navigation. */
export function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}
