import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { IconLogout, IconSettings } from '../icons.tsx';

interface UserMenuProps {
  email: string;
  onLogout: () => void;
  loggingOut?: boolean;
}

export function UserMenu({ email, onLogout, loggingOut = false }: UserMenuProps) {
  return (
    <Menu position="bottom-end" width={220} withinPortal shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu for ${email}`} style={{ borderRadius: 999 }} p={4}>
          <Group gap="xs" wrap="nowrap">
            <Avatar name={email} color="vigil" radius="xl" size={34} alt={email} aria-hidden />
            <Text size="sm" fw={500} visibleFrom="sm" maw={220} truncate="end">
              {email}
            </Text>
          </Group>
        </UnstyledButton>
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
