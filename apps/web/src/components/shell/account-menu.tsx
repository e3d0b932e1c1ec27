import { Menu, Text } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { IconLogout, IconSettings } from '../icons.tsx';
import { AccountButton } from './account-button.tsx';
import type { UserMenuProps } from './user-menu.tsx';

/**
 * The account menu itself, a chunk of its own: Mantine's Menu brings its popover, positioning and focus trap
 * (about 48 kB), which no page needs before a person reaches for the menu. It opens as it first mounts, on the
 * click that asked for it.
 */
export default function AccountMenu({ email, onLogout, loggingOut = false }: UserMenuProps) {
  const [opened, setOpened] = useState(true);
  // Escape closes the menu from its button too: the menu takes the focus a moment after it opens, and Mantine
  // hears Escape only inside it, so an Escape pressed at once would leave it open.
  const closeOnEscape = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Escape') setOpened(false);
  };
  return (
    <Menu position="bottom-end" width={220} withinPortal shadow="md" opened={opened} onChange={setOpened}>
      <Menu.Target>
        <AccountButton email={email} onKeyDown={closeOnEscape} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="xs" truncate="end">
            Signed in as {email}
          </Text>
        </Menu.Label>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
          Settings
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={onLogout} disabled={loggingOut}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
