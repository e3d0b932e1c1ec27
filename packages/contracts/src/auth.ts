import { z } from 'zod';
import { envelope } from './envelope.ts';
import {
  EMAIL_MAX,
  EMAIL_MESSAGES,
  EMAIL_PATTERN,
  PASSWORD_RULES,
  RESET_CODE_MESSAGES,
  RESET_CODE_PATTERN,
} from './auth-values.ts';

export const email = z
  .string({ error: EMAIL_MESSAGES.missing })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, EMAIL_MESSAGES.tooLong)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: EMAIL_MESSAGES.invalid }));

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
    .string({ error: RESET_CODE_MESSAGES.missing })
    .trim()
    .regex(RESET_CODE_PATTERN, RESET_CODE_MESSAGES.invalid),
  password: newPassword,
});
export const changePasswordBody = z.object({ oldPassword: existingPassword, newPassword });
export const messageResponse = envelope(z.object({ message: z.string() }));
