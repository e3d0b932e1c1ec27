import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

/**
 * floating-ui's `useMergeRefs`, the one thing Mantine's ScrollArea takes from `@floating-ui/react`, done by
 * Mantine's own hook: one ref that hands the node to each of `refs` (and runs their cleanups). The build gives it to
 * ScrollArea in place of that package (apps/web/scroll-area-refs.ts), whose 34 kB every first load otherwise
 * evaluated for this alone.
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>) {
  return useMergedRef<T>(...refs);
}
