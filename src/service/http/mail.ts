// Sign-in mail: by SMTP when the operator configured it (nodemailer), else the
// link goes to the server log, the documented delivery channel without SMTP.
import type { ServiceLog } from './deps';

export interface Mailer {
  sendSignIn(to: string, link: string): Promise<void>;
}

export function logMailer(log: ServiceLog): Mailer {
  return {
    async sendSignIn(to, link) {
      log({ event: 'auth.link', to, link, note: 'no SMTP configured (--smtp): open this link to sign in' });
    },
  };
}

/** nodemailer waits up to 2 minutes to connect and 10 for a stalled socket: a sign-in request would hang that long. */
export const SMTP_TIMEOUT_MS = 15_000;
const TIMEOUTS = ['connectionTimeout', 'greetingTimeout', 'socketTimeout'] as const;

/** Sends by SMTP (smtp://user:pass@host:port, or smtps:// for TLS from the start; nodemailer's URL options apply). */
export async function smtpMailer(smtpUrl: string, from: string, opts: { timeoutMs?: number } = {}): Promise<Mailer> {
  const nodemailer = await import('nodemailer');
  // The URL's own timeouts win; ours are added only where it names none.
  const url = new URL(smtpUrl);
  for (const name of TIMEOUTS) if (!url.searchParams.has(name)) url.searchParams.set(name, String(opts.timeoutMs ?? SMTP_TIMEOUT_MS));
  const transport = nodemailer.createTransport(url.toString());
  return {
    async sendSignIn(to, link) {
      await transport.sendMail({
        from,
        to,
        subject: 'Your sign-in link for Bot Arena',
        text: `Open this link to sign in (valid 15 minutes, once):\n\n${link}\n\nIf you did not ask for it, ignore this mail.`,
      });
    },
  };
}
