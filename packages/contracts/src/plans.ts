import { z } from 'zod';
import { envelope } from './envelope.ts';

export const CHANNELS = ['email', 'sms', 'call'] as const;
export type Channel = (typeof CHANNELS)[number];

export const plan = z.object({
  /** The name stored on the user and compared by the app ('Free' is the spec's). */
  name: z.string(),
  priceMonthlyCents: z.number().int(),
  /** How long one chosen period lasts. */
  periodDays: z.number().int(),
  maxMonitors: z.number().int(),
  minIntervalSeconds: z.number().int(),
  channels: z.array(z.enum(CHANNELS)),
  smsPerMonth: z.number().int(),
  callsPerMonth: z.number().int(),
  highlights: z.array(z.string()),
  /** Whether it can be chosen directly (Free) or needs a checkout. */
  checkout: z.boolean(),
});
export type Plan = z.infer<typeof plan>;

export const plansResponse = envelope(z.object({ list: z.array(plan) }));

export const choosePlanBody = z.object({ plan: z.string({ error: 'Choose a plan.' }).min(1).max(40) });
