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

export async function smtpMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl);
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
