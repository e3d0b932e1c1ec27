import { randomUUID } from 'node:crypto';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

type Waiter = { predicate: (mail: Mail) => boolean; resolve: (mail: Mail) => void };

/** What the sandbox SMTP server received, newest first, bounded so a long demo cannot grow it forever. */
export class Mailbox {
  readonly #mails: Mail[] = [];
  #waiters: Waiter[] = [];

  constructor(private readonly capacity = 500) {}

  add(mail: Mail): void {
    this.#mails.unshift(mail);
    this.#mails.length = Math.min(this.#mails.length, this.capacity);
    const ready = this.#waiters.filter((waiter) => waiter.predicate(mail));
    this.#waiters = this.#waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve(mail);
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
    const present = this.#mails.find(predicate);
    if (present) return Promise.resolve(present);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`No matching mail arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
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
