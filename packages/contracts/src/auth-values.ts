/**
 * The auth contract's plain values and rules, apart from its zod schemas (auth.ts): the web app's sign-in
 * pages check what people type with these without loading zod.
 */

/** Password rules, listed once: the register form shows them and the server enforces them. */
export const PASSWORD_RULES = [
  { id: 'length', label: 'At least 8 characters', test: (pw: string) => pw.length >= 8 },
  { id: 'letter', label: 'At least one letter', test: (pw: string) => /\p{L}/u.test(pw) },
  { id: 'digit', label: 'At least one number', test: (pw: string) => /\d/.test(pw) },
  { id: 'max', label: 'At most 128 characters', test: (pw: string) => pw.length <= 128 },
] as const;

/** An address has at most this many characters (RFC 5321's limit on a path). */
export const EMAIL_MAX = 254;
/** zod's own email pattern (`z.regexes.email`), named here so the web app reads addresses without zod. */
export const EMAIL_PATTERN =
  // eslint-disable-next-line no-useless-escape -- zod's source character for character (auth-values.test.ts)
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
export const EMAIL_MESSAGES = {
  missing: 'Enter your email address.',
  tooLong: `An email address has at most ${EMAIL_MAX} characters.`,
  invalid: 'Enter a valid email address, like name@shop.com.',
} as const;

/**
 * A typed address as the `email` schema (auth.ts) reads it, trimmed and lower-cased, or what is wrong with it
 * in the schema's words.
 */
export function readEmail(typed: string): { ok: true; address: string } | { ok: false; message: string } {
  const address = typed.trim().toLowerCase();
  if (address.length > EMAIL_MAX) return { ok: false, message: EMAIL_MESSAGES.tooLong };
  if (!EMAIL_PATTERN.test(address)) return { ok: false, message: EMAIL_MESSAGES.invalid };
  return { ok: true, address };
}

/** The password-reset code sent by email. */
export const RESET_CODE_PATTERN = /^\d{6}$/;
export const RESET_CODE_MESSAGES = {
  missing: 'Enter the 6-digit code from the email.',
  invalid: 'The code has 6 digits.',
} as const;

/** What is wrong with a typed reset code, in the words of `verifyPasswordBody`, or null. */
export function resetCodeProblem(typed: string): string | null {
  return RESET_CODE_PATTERN.test(typed.trim()) ? null : RESET_CODE_MESSAGES.invalid;
}
