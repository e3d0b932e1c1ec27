/** The spec's routes (§2), relative to the base /app. The router and the startup gate both read this table. */
export const BASENAME = '/app';

export type Access = 'public' | 'private';

export interface RouteEntry {
  path: string;
  access: Access;
  /** The page module's name under src/pages, loaded on demand. */
  page?: PageName;
  children?: RouteEntry[];
}

export type PageName =
  | 'login'
  | 'register'
  | 'oauth'
  | 'onboarding'
  | 'monitor'
  | 'monitor-create'
  | 'monitor-edit'
  | 'alerts'
  | 'settings'
  | 'pricing'
  | 'payment-success'
  | 'payment-error'
  | 'not-found';

export const ROUTES: RouteEntry[] = [
  {
    path: '/',
    access: 'private',
    children: [
      { path: 'login', access: 'public', page: 'login' },
      { path: 'register', access: 'public', page: 'register' },
      { path: 'oauth', access: 'public', page: 'oauth' },
      { path: 'onboarding', access: 'private', page: 'onboarding' },
      { path: 'monitor', access: 'private', page: 'monitor' },
      { path: 'monitor_create', access: 'private', page: 'monitor-create' },
      { path: 'monitor_edit', access: 'private', page: 'monitor-edit' },
      { path: 'alerts', access: 'private', page: 'alerts' },
      { path: 'settings', access: 'private', page: 'settings' },
      { path: 'pricing', access: 'private', page: 'pricing' },
      { path: 'payment-success', access: 'private', page: 'payment-success' },
      { path: 'payment-error', access: 'private', page: 'payment-error' },
    ],
  },
];
