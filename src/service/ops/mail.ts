// Sign-in mail: by SMTP when the operator configured it (nodemailer), else the
// link goes to the server log, the documented delivery channel without SMTP.
import { connect as netConnect, isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ServiceLog } from './log-format';

export interface Mailer {
  sendSignIn(to: string, link: string): Promise<void>;
  /** Connects and waits for the server's greeting, sending nothing: null when it greets, else why not. */
  check?(): Promise<string | null>;
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
  for (const name of TIMEOUTS)
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(opts.timeoutMs ?? SMTP_TIMEOUT_MS));
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
    check: () => smtpGreeting(url, opts.timeoutMs ?? SMTP_TIMEOUT_MS),
  };
}

/**
 * Whether the SMTP server answers with its greeting (220): null if so, else
 * why not. A bare socket, unref'd, so a slow server never keeps a stopping
 * process alive (nodemailer's verify() would, for its whole timeout).
 */
export function smtpGreeting(url: URL, timeoutMs: number): Promise<string | null> {
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (secure ? 465 : 587);
  return new Promise((resolve) => {
    const socket = secure
      ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host })
      : netConnect({ host, port });
    socket.unref();
    let text = '';
    const done = (why: string | null) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no greeting from ${host}:${port} within ${timeoutMs} ms`));
    socket.on('error', (err: NodeJS.ErrnoException) => done(`${host}:${port}: ${err.code ?? err.message}`));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!text.includes('\n')) return;
      done(
        text.startsWith('220')
          ? null
          : `${host}:${port} greeted with "${text.split(/\r?\n/)[0].slice(0, 100)}", not 220`,
      );
    });
    socket.on('end', () => done(`${host}:${port} closed the connection before its greeting`));
  });
}
