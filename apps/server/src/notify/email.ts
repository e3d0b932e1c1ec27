import nodemailer from 'nodemailer';

export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
  close(): void;
}

/** Email over SMTP (nodemailer): the sandbox's server locally, any SMTP provider by SMTP_URL. */
export function createEmailSender(options: { smtpUrl: string; from: string }): EmailSender {
  // Bounded waits: a provider that hangs fails the job, which pg-boss retries, instead of holding a worker.
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
    close() {
      transport.close();
    },
  };
}
