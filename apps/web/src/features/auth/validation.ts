import { email as emailSchema, verifyPasswordBody } from '@vigil/contracts';
import { passwordMeetsRules } from './components/password-rules.tsx';

/** Client-side checks with the server's own schemas and messages, so both sides say the same thing. */
export function emailError(value: string): string | null {
  const result = emailSchema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Enter a valid email address.');
}

export function newPasswordError(value: string): string | null {
  if (!value) return 'Enter a password.';
  return passwordMeetsRules(value) ? null : 'The password does not meet all the rules below.';
}

export function confirmError(value: string, password: string): string | null {
  if (!value) return 'Enter the password again.';
  return value === password ? null : 'The passwords do not match.';
}

export function resetCodeError(value: string): string | null {
  const result = verifyPasswordBody.shape.code.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'The code has 6 digits.');
}
