import type { EmailMessage } from './email.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const URL_PATTERN = /https?:\/\/[^\s<>"']*[^\s<>"'.,:;)]/g;

/**
 * An account notice as an email. Notices are written where no public URL is known (inside a transaction that
 * changes a plan), so they may name Vigil's pages by path: a `/app/…` path standing on its own is sent as a
 * link on `publicUrl`. The HTML is the text, escaped, with its links clickable.
 */
export function accountNoticeEmail(
  notice: { recipient: string; subject: string; text: string },
  publicUrl: string,
): EmailMessage {
  const text = notice.text.replace(/(^|\s)(\/app\/[^\s]*)/g, (_, space: string, path: string) => {
    return `${space}${publicUrl}${path}`;
  });
  const paragraphs = text
    .split(/\n{2,}/)
    .map((paragraph) => {
      const escaped = escapeHtml(paragraph).replace(URL_PATTERN, (url) => `<a href="${url}">${url}</a>`);
      return `<p>${escaped.replace(/\n/g, '<br>')}</p>`;
    })
    .join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
${paragraphs}
</body></html>`;
  return { to: [notice.recipient], subject: notice.subject, text, html };
}
