import type { EmailMessage } from './email.ts';

export interface QuotaEmailInput {
  to: string;
  channel: 'sms' | 'call';
  planName: string;
  limit: number;
  /** The first day of next month (UTC), when the quota starts again. */
  resetsOn: Date;
  pricingUrl: string;
}

/** Sent once a month per channel, when the plan's last call or SMS of the month is used. */
export function quotaEmail(input: QuotaEmailInput): EmailMessage {
  const noun = input.channel === 'sms' ? 'SMS' : 'phone calls';
  const day = input.resetsOn.toISOString().slice(0, 10);
  const subject = `[Vigil] This month’s ${noun} are used up`;
  const lines = [
    `Your ${input.planName} plan includes ${input.limit} ${noun} a month, and this month’s are used up.`,
    `Until ${day} alerts that would have gone by ${input.channel === 'sms' ? 'SMS' : 'call'} go by email instead.`,
    `A bigger plan includes more: ${input.pricingUrl}`,
  ];
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
${lines
  .slice(0, 2)
  .map((line) => `<p>${line}</p>`)
  .join('\n')}
<p>A bigger plan includes more: <a href="${input.pricingUrl}">see the plans</a>.</p>
</body></html>`;
  return { to: [input.to], subject, text: lines.join('\n\n'), html };
}
