import type { ReactNode } from 'react';
import { Box, Button, Container, Group } from '@mantine/core';
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
          {/* On a phone the words would push the header wider than the screen: the icon stays, named. */}
          <Button
            variant="subtle"
            color="gray"
            onClick={onLogout}
            loading={loggingOut}
            aria-label="Log out"
            px={{ base: 'xs', xs: 'md' }}
          >
            <IconLogout size={16} />
            <Box component="span" visibleFrom="xs" ml={8}>
              Log out
            </Box>
          </Button>
        </Group>
      </Group>
    </Container>
  );
}
