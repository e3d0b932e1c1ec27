import nodemailer from 'nodemailer';

export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /**
   * The Message-ID header, when the message may be sent more than once (a retry after a crash between the
   * server's 250 and our record of it): every copy then carries the same id, so mail systems fold them.
   */
  messageId?: string;
}

export interface SentEmail {
  /** The Message-ID header; with `response`, what the provider answered when it took the message. */
  messageId: string;
  response: string;
}

export interface EmailSender {
  /** Resolves once the server accepted the message (its 250 after DATA). */
  send(message: EmailMessage): Promise<SentEmail>;
  close(): void;
}

/** Email over SMTP (nodemailer): the sandbox's server locally, any SMTP provider by SMTP_URL. */
export function createEmailSender(options: { smtpUrl: string; from: string }): EmailSender {
  // Bounded waits: a provider that hangs fails the job, which pg-boss retries, instead of holding a worker.
  // Together they stay under an alert delivery's lease (deliver-alert.job.ts).
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 10_000,
  });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      return { messageId: info.messageId, response: info.response };
    },
    close() {
      transport.close();
    },
  };
}

/**
 * A Message-ID that is the same on every attempt to send one thing (`kind` and its `id`), in the domain
 * people reach Vigil at.
 */
export function stableMessageId(kind: string, id: string, publicUrl: string): string {
  return `<${kind}-${id}@${new URL(publicUrl).hostname}>`;
}

/**
 * Whether a failed send may succeed later: the server said "try later" (SMTP 4xx), or it could not be
 * reached, timed out or dropped the connection. Other refusals (5xx: no such mailbox, rejected as spam,
 * bad credentials) are final.
 */
export function isTransientEmailError(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: number; code?: string };
  if (typeof responseCode === 'number') return responseCode >= 400 && responseCode < 500;
  return ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPROTOCOL'].includes(
    code ?? '',
  );
}
