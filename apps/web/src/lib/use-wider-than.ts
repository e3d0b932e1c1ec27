import { useMantineTheme, type MantineBreakpoint } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the window is at least as wide as the theme's `breakpoint`: for layouts that swap components (a
 * table on a desktop, cards on a phone), where CSS alone would keep both in the page and in the
 * accessibility tree. Read on the first render, so the phone never flashes the desktop layout.
 */
export function useWiderThan(breakpoint: MantineBreakpoint): boolean {
  const theme = useMantineTheme();
  return useMediaQuery(`(min-width: ${theme.breakpoints[breakpoint]})`, true, {
    getInitialValueInEffect: false,
  });
}
