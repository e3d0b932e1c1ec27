import { readEmail } from '@vigil/contracts';
import { passwordMeetsRules } from './components/password-rules.tsx';

/**
 * Client-side checks with the server's own rules and messages (contracts' `auth-values.ts`, which its schemas use),
 * so both sides say the same thing, and the sign-in pages load no zod.
 */
export function emailError(value: string): string | null {
  const result = readEmail(value);
  return result.ok ? null : result.message;
}

export function newPasswordError(value: string): string | null {
  if (!value) return 'Enter a password.';
  return passwordMeetsRules(value) ? null : 'The password does not meet all the rules below.';
}

export function confirmError(value: string, password: string): string | null {
  if (!value) return 'Enter the password again.';
  return value === password ? null : 'The passwords do not match.';
}
