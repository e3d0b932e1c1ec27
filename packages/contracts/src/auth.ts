import { z } from 'zod';
import { envelope } from './envelope.ts';

/** Password rules, listed once: the register form shows them and the server enforces them. */
export const PASSWORD_RULES = [
  { id: 'length', label: 'At least 8 characters', test: (pw: string) => pw.length >= 8 },
  { id: 'letter', label: 'At least one letter', test: (pw: string) => /\p{L}/u.test(pw) },
  { id: 'digit', label: 'At least one number', test: (pw: string) => /\d/.test(pw) },
  { id: 'max', label: 'At most 128 characters', test: (pw: string) => pw.length <= 128 },
] as const;

export const email = z
  .string({ error: 'Enter your email address.' })
  .trim()
  .toLowerCase()
  .max(254, 'An email address has at most 254 characters.')
  .pipe(z.email({ error: 'Enter a valid email address, like name@shop.com.' }));

export const newPassword = z.string({ error: 'Enter a password.' }).superRefine((pw, ctx) => {
  for (const rule of PASSWORD_RULES) {
    if (!rule.test(pw)) ctx.addIssue({ code: 'custom', message: `Password: ${rule.label.toLowerCase()}.` });
  }
});

const existingPassword = z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.').max(128);

export const session = z.object({
  token: z.string(),
  monitor_key: z.string(),
  /** Where the app goes next: the `redirect` carried through an OpenID sign-in, if any. */
  redirect: z.string().nullable().optional(),
});
export type Session = z.infer<typeof session>;

export const registerBody = z.object({ email, password: newPassword });
export type RegisterBody = z.infer<typeof registerBody>;
export const registerResponse = envelope(session);

export const passwordLoginBody = z.object({ email, password: existingPassword });
export const oidcLoginBody = z.object({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(256),
});
/** Email and password, or the authorization code and state the OpenID provider sent back to /app/oauth. */
export const loginBody = z.union([passwordLoginBody, oidcLoginBody], {
  error: 'Sign in with your email and password, or through your Google account.',
});
export type LoginBody = z.infer<typeof loginBody>;
export const loginResponse = envelope(session);

export const oidcStartQuery = z.object({ redirect: z.string().max(2048).optional() });
export const oidcStartResponse = envelope(z.object({ url: z.string() }));

export const forgetPasswordBody = z.object({ email });
export const verifyPasswordBody = z.object({
  email,
  code: z
    .string({ error: 'Enter the 6-digit code from the email.' })
    .trim()
    .regex(/^\d{6}$/, 'The code has 6 digits.'),
  password: newPassword,
});
export const changePasswordBody = z.object({ oldPassword: existingPassword, newPassword });
export const messageResponse = envelope(z.object({ message: z.string() }));
