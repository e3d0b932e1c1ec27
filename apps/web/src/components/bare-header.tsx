import type { ReactNode } from 'react';
import { Button, Container, Group } from '@mantine/core';
import { Link } from 'react-router';
import { IconLogout } from './icons.tsx';
import { Logo } from './logo.tsx';

/** The top bar of the pages shown without the shell (onboarding, pricing, payment outcomes). */
export function BareHeader({
  onLogout,
  loggingOut,
  children,
}: {
  onLogout: () => void;
  loggingOut: boolean;
  children?: ReactNode;
}) {
  return (
    <Container size="lg" component="header" py="md">
      <Group justify="space-between" wrap="nowrap">
        <Link to="/" aria-label="Vigil, go to the app's start page" style={{ textDecoration: 'none' }}>
          <Logo />
        </Link>
        <Group gap="xs" wrap="nowrap">
          {children}
          <Button
            variant="subtle"
            color="gray"
            leftSection={<IconLogout size={16} />}
            onClick={onLogout}
            loading={loggingOut}
          >
            Log out
          </Button>
        </Group>
      </Group>
    </Container>
  );
}
