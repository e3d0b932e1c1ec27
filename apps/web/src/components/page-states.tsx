import type { ReactNode } from 'react';
import { Alert, Button, Center, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import { formatDateTime } from '../lib/format-time.ts';
import { IconAlertTriangle } from './icons.tsx';

/** The full-height spinner shown while the user or a page loads. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="100dvh" role="status" aria-live="polite">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}

/** A spinner filling the content area (inside the shell). */
export function SectionSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center mih={240} role="status" aria-live="polite">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}

interface ErrorStateProps {
  title: string;
  children?: ReactNode;
  onRetry?: () => void;
  retryLabel?: string;
}

export function ErrorState({ title, children, onRetry, retryLabel = 'Try again' }: ErrorStateProps) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle />} role="alert">
      <Stack gap="sm" align="flex-start">
        {children ? <Text size="sm">{children}</Text> : null}
        {onRetry ? (
          <Button variant="white" color="red" size="xs" onClick={onRetry}>
            {retryLabel}
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/**
 * Said under a list or page whose background refresh failed (offline, the server restarting): what is shown
 * is kept, with when it was current, instead of an error toast every 30 s.
 */
export function StaleNotice({ stale, receivedAt }: { stale: boolean; receivedAt: number | null }) {
  if (!stale || receivedAt === null) return null;
  return (
    <Text size="sm" c="dimmed" role="status">
      Could not refresh: showing what was current at {formatDateTime(new Date(receivedAt).toISOString())}.
      Trying again every 30 seconds.
    </Text>
  );
}
