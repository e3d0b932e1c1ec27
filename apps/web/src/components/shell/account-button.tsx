import type { ComponentProps } from 'react';
import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';

/** The header's avatar and address: the account menu's button, before and after the menu's code has arrived. */
export function AccountButton({
  email,
  ...props
}: { email: string } & ComponentProps<typeof UnstyledButton<'button'>>) {
  return (
    <UnstyledButton aria-label={`Account menu for ${email}`} style={{ borderRadius: 999 }} p={4} {...props}>
      <Group gap="xs" wrap="nowrap">
        {/* No initials: text inside the button that its name lacks fails "label in name" (WCAG 2.5.3). */}
        <Avatar color="vigil" radius="xl" size={34} aria-hidden />
        <Text size="sm" fw={500} visibleFrom="sm" maw={220} truncate="end">
          {email}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
