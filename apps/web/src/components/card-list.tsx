import type { ReactNode } from 'react';
import { Stack } from '@mantine/core';

/**
 * A table's rows as cards on a phone: a list, so a screen reader counts them, dimmed and marked busy while a
 * reload runs. Its children are the cards (`<Paper component="li">`).
 */
export function CardList({ label, busy, children }: { label: string; busy: boolean; children: ReactNode }) {
  return (
    <Stack
      component="ul"
      gap="sm"
      m={0}
      p={0}
      aria-label={label}
      aria-busy={busy}
      style={{ listStyle: 'none', opacity: busy ? 0.6 : 1 }}
    >
      {children}
    </Stack>
  );
}
