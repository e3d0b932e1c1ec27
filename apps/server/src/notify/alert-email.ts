import type { EmailMessage } from './email.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface AlertEmailInput {
  to: string;
  /** 'opened', 'repeat-N' or 'resolved'. */
  event: string;
  monitorName: string;
  /** What is watched (the website's address). */
  target: string;
  conditionLabel: string;
  summary: string;
  openedAt: Date;
  resolvedAt: Date | null;
  /** For opened and repeat alerts: the signed link that stops the repeats. */
  ackLink: string | null;
  /** Where the alerts page is. */
  alertsUrl: string;
  /** The same on every attempt to send this delivery, so a copy sent after a crash is folded into the first. */
  messageId: string;
}

/** "2026-11-22 14:03 UTC": alerts go to people in any time zone, so the zone is always written. */
function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function duration(from: Date, to: Date): string {
  const minutes = Math.max(0, Math.round((to.getTime() - from.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

/** Subject and body of one incident event's email. */
export function alertEmail(input: AlertEmailInput): EmailMessage {
  const resolved = input.event === 'resolved';
  const repeat = /^repeat-(\d+)$/.exec(input.event)?.[1];
  const subject = resolved
    ? `[Vigil] Recovered: ${input.monitorName} — ${input.conditionLabel}`
    : `[Vigil] ${repeat ? `Still DOWN (reminder ${repeat})` : 'DOWN'}: ${input.monitorName} — ${input.summary}`;
  const headline = resolved
    ? `${input.monitorName} is back: ${input.conditionLabel.toLowerCase()} passes again.`
    : `${input.monitorName} has a problem: ${input.summary}.`;
  const facts: [string, string][] = [
    ['Monitor', input.monitorName],
    ['Watching', input.target],
    ['Condition', input.conditionLabel],
    [resolved ? 'Last problem' : 'What we saw', input.summary],
    ['Since', when(input.openedAt)],
  ];
  if (resolved && input.resolvedAt) {
    facts.push([
      'Recovered',
      `${when(input.resolvedAt)} (down ${duration(input.openedAt, input.resolvedAt)})`,
    ]);
  }
  const ackText = input.ackLink ? ['', `Acknowledge to stop the reminders: ${input.ackLink}`] : [];
  const text = [
    headline,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...ackText,
    '',
    `All alerts: ${input.alertsUrl}`,
  ].join('\n');
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><td style="padding:2px 12px 2px 0;color:#5c6670">${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const ackHtml = input.ackLink
    ? `<p><a href="${escapeHtml(input.ackLink)}" style="display:inline-block;padding:8px 16px;background:#0b6e69;color:#fff;border-radius:4px;text-decoration:none">Acknowledge</a> <span style="color:#5c6670">stops the reminders for this incident.</span></p>`
    : '';
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
<p style="font-size:18px;font-weight:600">${escapeHtml(headline)}</p>
<table>${rows}</table>
${ackHtml}
<p><a href="${escapeHtml(input.alertsUrl)}">All alerts</a></p>
</body></html>`;
  return { to: [input.to], subject, text, html, messageId: input.messageId };
}
