import { NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { NAV_ITEMS, isNavItemActive } from './nav-items.tsx';

export function Navbar({ onNavigate }: { onNavigate?: () => void }) {
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
