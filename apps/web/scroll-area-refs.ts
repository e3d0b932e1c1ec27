import { join } from 'node:path';
import type { Plugin } from 'vite';

/** Mantine's ScrollArea, which imports `useMergeRefs` from `@floating-ui/react` and nothing else of it. */
const SCROLL_AREA = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/;
export const MERGE_REFS = join(import.meta.dirname, 'src/lib/merge-refs.ts');

/**
 * The Vite plugin that gives Mantine's ScrollArea our `useMergeRefs` (src/lib/merge-refs.ts) for floating-ui's.
 * The tables of the monitor list and of alerts scroll inside a ScrollArea, so the signed-in chunk carried
 * `@floating-ui/react` with floating-ui's positioning (34 kB, which that package's build keeps whole) for one hook.
 * Popovers and menus, loaded when opened, still get floating-ui itself. Should ScrollArea take more from it, the
 * build fails on the missing export rather than shipping it.
 */
export function scrollAreaRefs(): Plugin {
  return {
    name: 'vigil-scroll-area-refs',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@floating-ui/react' && importer && SCROLL_AREA.test(importer)) return MERGE_REFS;
      return null;
    },
  };
}
