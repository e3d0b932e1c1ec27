import type { ReactNode } from 'react';
import { IconActivity, IconBell, IconCreditCard, IconSettings } from '../icons.tsx';

export interface NavItem {
  label: string;
  /** The entry is highlighted when the current path contains this segment. */
  segment: string;
  to: string;
  icon: ReactNode;
}

/** The spec's navbar entries; 'Setings' is spelled as the spec spells it. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Monitors', segment: 'monitor', to: '/monitor', icon: <IconActivity /> },
  { label: 'Alerts', segment: 'alerts', to: '/alerts', icon: <IconBell /> },
  { label: 'Subscription', segment: 'pricing', to: '/pricing', icon: <IconCreditCard /> },
  { label: 'Setings', segment: 'settings', to: '/settings', icon: <IconSettings /> },
];

export function isNavItemActive(item: NavItem, pathname: string): boolean {
  return pathname.includes(item.segment);
}
