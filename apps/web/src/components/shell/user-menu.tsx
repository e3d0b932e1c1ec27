import { useState, type ComponentType } from 'react';
import { showErrorToast } from '../../lib/api-client.ts';
import { AccountButton } from './account-button.tsx';

export interface UserMenuProps {
  email: string;
  onLogout: () => void;
  loggingOut?: boolean;
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
        showErrorToast('The account menu did not load. Check your connection and try again.');
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
