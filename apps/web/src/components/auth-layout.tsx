import type { ReactNode } from 'react';
import { Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Logo } from './logo.tsx';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Content above the card, replacing the centred logo (e.g. a bar with a log-out button). */
  header?: ReactNode;
  width?: number;
}

/** The centred card of the pages shown before sign-in (and of the bare outcome pages). */
export function AuthLayout({ title, subtitle, children, footer, header, width = 440 }: AuthLayoutProps) {
  return (
    <Box
      component="main"
      mih="100dvh"
      pt={header ? 0 : 48}
      pb={48}
      px="md"
      style={{
        background:
          'radial-gradient(1200px 500px at 50% -10%, var(--mantine-color-vigil-0), transparent 70%), var(--mantine-color-body)',
      }}
    >
      {header}
      <Center>
        <Stack w="100%" maw={width} gap="lg">
          {header ? null : (
            <Center>
              <Logo size={34} />
            </Center>
          )}
          <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 32 }} radius="lg">
            <Stack gap="lg">
              <Stack gap={4}>
                <Title order={1} fz={24}>
                  {title}
                </Title>
                {subtitle ? (
                  <Text c="dimmed" size="sm">
                    {subtitle}
                  </Text>
                ) : null}
              </Stack>
              {children}
            </Stack>
          </Paper>
          {footer ? (
            <Text ta="center" size="sm" c="dimmed">
              {footer}
            </Text>
          ) : null}
        </Stack>
      </Center>
    </Box>
  );
}
