import { Badge, NavLink, Stack, VisuallyHidden } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { NAV_ITEMS, isNavItemActive } from './nav-items.tsx';

/** The spec's entries; Alerts carries the count of open (unacknowledged) alerts when there are any. */
export function Navbar({ onNavigate, openAlerts = 0 }: { onNavigate?: () => void; openAlerts?: number }) {
  // The browser's path (with /app), so the segment test sees exactly what the address bar shows.
  const { pathname } = useLocation();
  const fullPath = `/app${pathname === '/' ? '' : pathname}`;
  return (
    <nav aria-label="Main">
      <Stack gap={4}>
        {NAV_ITEMS.map((item) => {
          const active = isNavItemActive(item, fullPath);
          return (
            <NavLink
              key={item.segment}
              component={Link}
              to={item.to}
              label={item.label}
              leftSection={item.icon}
              rightSection={
                item.segment === 'alerts' && openAlerts > 0 ? (
                  <Badge size="sm" color="red" circle={openAlerts < 10}>
                    {openAlerts}
                    <VisuallyHidden> open</VisuallyHidden>
                  </Badge>
                ) : undefined
              }
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
              fw={active ? 600 : 500}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          );
        })}
      </Stack>
    </nav>
  );
}
