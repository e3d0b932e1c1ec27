import { randomUUID } from 'node:crypto';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { Waiters } from './waiters.ts';

export interface Mail {
  id: string;
  /** The Message-ID header as sent: copies of one message share it, so mail systems fold them into one. */
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/** What the sandbox SMTP server received, newest first, bounded so a long demo cannot grow it forever. */
export class Mailbox {
  readonly #mails: Mail[] = [];
  readonly #waiters = new Waiters<Mail>('mail');

  constructor(private readonly capacity = 500) {}

  add(mail: Mail): void {
    this.#mails.unshift(mail);
    this.#mails.length = Math.min(this.#mails.length, this.capacity);
    this.#waiters.notify(mail);
  }

  list(filter: { to?: string } = {}): Mail[] {
    const to = filter.to?.toLowerCase();
    return to ? this.#mails.filter((mail) => mail.to.includes(to)) : [...this.#mails];
  }

  get(id: string): Mail | undefined {
    return this.#mails.find((mail) => mail.id === id);
  }

  clear(): void {
    this.#mails.length = 0;
  }

  /** Resolves with the first mail, already here or still to come, that matches; rejects after `timeoutMs`. */
  waitFor(predicate: (mail: Mail) => boolean, timeoutMs = 10_000): Promise<Mail> {
    return this.#waiters.waitFor(this.#mails, predicate, timeoutMs);
  }
}

/** A plain SMTP server (no TLS, no auth) that parses each message into the mailbox. */
export function createSmtpServer(mailbox: Mailbox): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'Vigil sandbox SMTP',
    size: 10 * 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((parsed) => {
            mailbox.add({
              id: randomUUID(),
              messageId: parsed.messageId ?? '',
              from:
                parsed.from?.address ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html ?? '',
              receivedAt: new Date().toISOString(),
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
}
