export * from './alert-settings.ts';
export * from './auth.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './phone.ts';
export * from './plans.ts';
export * from './user.ts';
