import { Suspense, lazy, useState, type ReactNode } from 'react';
import { MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { theme } from './theme.ts';

// The toasts' container (with its transitions, 20 kB) loads when the first toast is shown: most visits show none.
// What is shown before it mounts waits in Mantine's notifications store and appears when it does.
const Notifications = lazy(() =>
  import('./toasts.ts').then(({ Notifications }) => ({ default: Notifications })),
);

/** Notifications as the spec sets them: bottom-right, closing after 4 s, at most 5 at a time. */
export const NOTIFICATIONS = { position: 'bottom-right', autoClose: 4000, limit: 5 } as const;

// Mantine's default dimmed grey is 3.3:1 on white; this one reads at 5.9:1 (WCAG AA for body text).
// Mantine's darkest orange is 4.3:1; warnings written in orange use this one, 5.4:1.
// Light badges and alerts write shade 9 on shade 1: 2.7–4.3:1 for these five colours (a green "Up" badge is
// 3.8:1), so their text is darkened to at least 4.6:1.
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c6670',
    '--vigil-color-warning-text': '#b54708',
    '--mantine-color-teal-light-color': '#087956',
    '--mantine-color-green-light-color': '#257535',
    '--mantine-color-lime-light-color': '#4a760a',
    '--mantine-color-yellow-light-color': '#a15300',
    '--mantine-color-orange-light-color': '#b83d0d',
  },
  dark: { '--vigil-color-warning-text': 'var(--mantine-color-orange-4)' },
});

/** Mantine with Vigil's theme: all a page needs to render, here and when prerendered at build time. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      {children}
    </MantineProvider>
  );
}

/** The toasts' container, from the first toast on (it stays, so toasts close as they should). */
function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Notifications {...NOTIFICATIONS} />
    </Suspense>
  ) : null;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <Toasts />
      {children}
    </ThemeProvider>
  );
}
