import { useEffect, type ReactNode } from 'react';
import { AppShell as MantineAppShell, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useLocation } from 'react-router';
import { useUserInfo } from '../../lib/use-user-info.ts';
import { useWiderThan } from '../../lib/use-wider-than.ts';
import { Logo } from '../logo.tsx';
import { Navbar } from './navbar.tsx';
import { useAttention } from './use-attention.ts';
import { UserMenu } from './user-menu.tsx';

export const HEADER_HEIGHT = 60;
export const NAVBAR_WIDTH = 200;

interface AppShellProps {
  children: ReactNode;
  onLogout: () => void;
  loggingOut?: boolean;
}

/** Header, navbar and content. Renders nothing until a user is stored (the spec's rule). */
export function AppShell({ children, onLogout, loggingOut }: AppShellProps) {
  const user = useUserInfo();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  // Below sm the closed navbar is only slid out of view: inert keeps its links out of the tab order too.
  const navbarAside = useWiderThan('sm');
  const { openAlerts } = useAttention();

  useEffect(close, [pathname, close]);

  if (!user) return null;

  return (
    <MantineAppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      // A phone's width goes to the content: nested cards each give back a little of their padding.
      padding={{ base: 'md', sm: 'lg' }}
    >
      <MantineAppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
              aria-controls="vigil-navbar"
            />
            <Link to="/" aria-label="Vigil, go to the app's start page" style={{ textDecoration: 'none' }}>
              <Logo />
            </Link>
          </Group>
          <UserMenu email={user.email} onLogout={onLogout} loggingOut={loggingOut ?? false} />
        </Group>
      </MantineAppShell.Header>
      <MantineAppShell.Navbar p="sm" id="vigil-navbar" inert={!navbarAside && !opened}>
        <Navbar onNavigate={close} openAlerts={openAlerts} />
      </MantineAppShell.Navbar>
      <MantineAppShell.Main>{children}</MantineAppShell.Main>
    </MantineAppShell>
  );
}
