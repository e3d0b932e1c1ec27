import type { SendEmailPayload } from '../../jobs/send-email.job.ts';

export const CONTACT_CODE_EMAIL_SUBJECT = 'Your Vigil verification code';

/** The code that proves an alert email address belongs to the person who entered it. */
export function contactCodeEmail(input: { to: string; code: string }): SendEmailPayload {
  const text = [
    `Your Vigil verification code is ${input.code}`,
    '',
    'Enter it in the alert settings of your monitor so Vigil can send alerts to this address.',
    '',
    'The code works for 15 minutes, once. If you did not ask for it, ignore this email: no alerts will come here.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
<p>Your Vigil verification code is</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px">${input.code}</p>
<p>Enter it in the alert settings of your monitor so Vigil can send alerts to this address.</p>
<p style="color:#555">The code works for 15 minutes, once. If you did not ask for it, ignore this email: no alerts will come here.</p>
</body></html>`;
  return { to: [input.to], subject: CONTACT_CODE_EMAIL_SUBJECT, text, html };
}
