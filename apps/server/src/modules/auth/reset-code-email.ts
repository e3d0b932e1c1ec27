import type { SendEmailPayload } from '../../jobs/send-email.job.ts';

export const RESET_EMAIL_SUBJECT = 'Your Vigil password reset code';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The reset email: the code, and a link to the login page, which offers the reset form for that email. */
export function resetCodeEmail(input: { to: string; code: string; publicUrl: string }): SendEmailPayload {
  const link = `${input.publicUrl}/app/login?reset=1&email=${encodeURIComponent(input.to)}`;
  const text = [
    `Your Vigil password reset code is ${input.code}`,
    '',
    `Enter it with your new password at ${link}`,
    '',
    'The code works for 30 minutes, once. If you did not ask to reset your password, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
<p>Your Vigil password reset code is</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px">${input.code}</p>
<p><a href="${escapeHtml(link)}">Reset your password</a> and enter the code with your new password.</p>
<p style="color:#555">The code works for 30 minutes, once. If you did not ask to reset your password, ignore this email: your password stays as it is.</p>
</body></html>`;
  return { to: [input.to], subject: RESET_EMAIL_SUBJECT, text, html };
}
