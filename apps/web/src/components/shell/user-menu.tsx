import { useState, type ComponentProps, type ComponentType } from 'react';
import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';

export interface UserMenuProps {
  email: string;
  onLogout: () => void;
  loggingOut?: boolean;
}

/** The header's avatar and address: the account menu's button, before and after the menu's code has arrived. */
export function AccountButton({
  email,
  ...props
}: { email: string } & ComponentProps<typeof UnstyledButton<'button'>>) {
  return (
    <UnstyledButton aria-label={`Account menu for ${email}`} style={{ borderRadius: 999 }} p={4} {...props}>
      <Group gap="xs" wrap="nowrap">
        <Avatar name={email} color="vigil" radius="xl" size={34} alt={email} aria-hidden />
        <Text size="sm" fw={500} visibleFrom="sm" maw={220} truncate="end">
          {email}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

let menuCode: Promise<{ default: ComponentType<UserMenuProps> }> | null = null;
/** Fetches the menu's code once; a failed fetch is forgotten, so the next attempt tries again. */
function loadAccountMenu() {
  menuCode ??= import('./account-menu.tsx').catch((error: unknown) => {
    menuCode = null;
    throw error;
  });
  return menuCode;
}
const preload = () => void loadAccountMenu().catch(() => undefined);

/**
 * The account menu (Settings, Log out). Until it is first opened it is only its button, and the menu's code is
 * fetched when a pointer or focus comes to the button, so it is there by the click; the click that finds it
 * still on its way opens the menu once it arrives.
 */
export function UserMenu(props: UserMenuProps) {
  const [Menu, setMenu] = useState<ComponentType<UserMenuProps> | null>(null);
  const [loading, setLoading] = useState(false);
  if (Menu) return <Menu {...props} />;

  const open = () => {
    setLoading(true);
    loadAccountMenu().then(
      (module) => setMenu(() => module.default),
      () => {
        setLoading(false);
        notifications.show({
          color: 'red',
          title: 'Error',
          message: 'The account menu did not load. Check your connection and try again.',
        });
      },
    );
  };
  return (
    <AccountButton
      email={props.email}
      aria-haspopup="menu"
      aria-expanded={false}
      aria-busy={loading}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={open}
    />
  );
}
