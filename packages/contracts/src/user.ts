import { z } from 'zod';
import { email } from './auth.ts';
import { envelope } from './envelope.ts';
import { isSupportedPhone } from './phone.ts';
import { INDUSTRIES } from './user-values.ts';

/** Unix seconds when the plan period ends, or the string '0' before any plan was chosen (the spec's sentinel). */
export const planExpiresin = z.union([z.literal('0'), z.number().int()]);

export const userInfo = z.object({
  email: z.string(),
  industry: z.string().nullable(),
  telPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  plan: z.string(),
  planExpiresin,
});
export type UserInfo = z.infer<typeof userInfo>;
export const userInfoResponse = envelope(userInfo);

const industry = z.enum(INDUSTRIES, { error: 'Choose your industry from the list.' });
const telPhone = z
  .string()
  .trim()
  .refine(
    isSupportedPhone,
    'Enter a phone number from one of the supported countries, in international form.',
  );
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? null : value), schema.nullable().optional());

export const updateUserInfoBody = z
  .object({ industry: industry.optional(), telPhone: optional(telPhone), contactEmail: optional(email) })
  .strict();
export type UpdateUserInfoBody = z.infer<typeof updateUserInfoBody>;

export const onboardingBody = z
  .object({ industry, telPhone: optional(telPhone), contactEmail: optional(email) })
  .refine((body) => body.telPhone || body.contactEmail, {
    message: 'Give a contact phone number or a contact email, so we can reach you when something breaks.',
    path: ['contactEmail'],
  });
export type OnboardingBody = z.infer<typeof onboardingBody>;
