import type { ReactNode } from 'react';
import { EmptyState, Paper } from '@mantine/core';

/** An empty list, saying plainly why it is empty and what comes next. */
export function HonestEmptyState({
  icon,
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" py={56} px="lg">
      <EmptyState icon={icon} variant="light" title={title} description={children} size="md">
        {actions ? <EmptyState.Actions>{actions}</EmptyState.Actions> : null}
      </EmptyState>
    </Paper>
  );
}
