import {
  Component,
  Suspense,
  lazy,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { Box, Button, Center, Stack, Text, Title } from '@mantine/core';
import { FullPageSpinner, SectionSpinner } from '../components/page-states.tsx';

/** How long a page's code may take to arrive before the page shows an error with a retry. */
export const PAGE_LOAD_TIMEOUT_MS = 120_000;

export class PageLoadTimeoutError extends Error {
  constructor(ms: number) {
    super(`The page did not load within ${ms / 1000} seconds.`);
    this.name = 'PageLoadTimeoutError';
  }
}

/** Rejects when `promise` has not settled after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PageLoadTimeoutError(ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface LazyPageOptions {
  timeoutMs?: number;
  /** Full-height spinner and error (pages without the shell) or one sized for the shell's content area. */
  fullPage?: boolean;
}

/**
 * A lazily loaded page; `preload()` starts fetching its code before it renders (at most once per attempt) and
 * settles when it has arrived or failed.
 */
export type LazyPage<P extends object = object> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * A page loaded on demand (React.lazy) with a spinner while it loads. If its code fails to arrive, or takes
 * longer than the page load timeout, an error state offers a retry that loads it again.
 */
export function lazyPage<P extends object = object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  options: LazyPageOptions = {},
): LazyPage<P> {
  const { timeoutMs = PAGE_LOAD_TIMEOUT_MS, fullPage = false } = options;
  // The import started by preload(), if any: the first render then waits on it instead of starting another.
  let started: Promise<{ default: ComponentType<P> }> | null = null;
  // The page once its code has arrived: rendered at once, where React.lazy would suspend for a tick first
  // and show the spinner in place of a page the server sent already rendered (main.tsx).
  let loaded: ComponentType<P> | null = null;
  const start = () =>
    (started ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const create = () => lazy(() => withTimeout(start(), timeoutMs));
  let current = create();

  function LazyPage(props: P) {
    const [Lazy, setPage] = useState(() => current);
    const Page = loaded ?? Lazy;
    const retry = () => {
      started = null;
      current = create();
      setPage(() => current);
    };
    return (
      <PageErrorBoundary onRetry={retry} fullPage={fullPage}>
        <Suspense
          fallback={
            fullPage ? <FullPageSpinner label="Loading page" /> : <SectionSpinner label="Loading page" />
          }
        >
          <Page {...props} />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  // A failed preload is reported by the render that awaits it, with its retry.
  LazyPage.preload = () =>
    start().then(
      () => undefined,
      () => undefined,
    );
  return LazyPage;
}

interface BoundaryProps {
  children: ReactNode;
  onRetry: () => void;
  fullPage: boolean;
}

class PageErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Page failed', error, info.componentStack);
  }

  retry = () => {
    this.setState({ error: null });
    this.props.onRetry();
  };

  override render() {
    if (!this.state.error) return this.props.children;
    const timedOut = this.state.error instanceof PageLoadTimeoutError;
    return (
      <Center mih={this.props.fullPage ? '100dvh' : 320} p="md">
        <Box role="alert" maw={420} ta="center">
          <Stack gap="sm" align="center">
            <Title order={2} fz="lg">
              {timedOut ? 'This page is taking too long to load' : 'This page could not be shown'}
            </Title>
            <Text c="dimmed" size="sm">
              {timedOut
                ? 'Your connection may be slow or offline. Check it and try again.'
                : 'Something went wrong while loading it. Trying again usually helps; if it keeps happening, reload the app.'}
            </Text>
            <Button onClick={this.retry}>Try again</Button>
          </Stack>
        </Box>
      </Center>
    );
  }
}
