// A real SMTP server on 127.0.0.1 (smtp-server) that keeps every message, so
// tests sign in by following the link the service mailed.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Mail {
  to: string[];
  raw: string;
  /** The text with quoted-printable soft breaks and escapes undone. */
  text: string;
}

export interface MailCapture {
  url: string;
  mails: Mail[];
  /** Resolves with the next mail to `to` (or one already received and not yet taken). */
  next(to: string, timeoutMs?: number): Promise<Mail>;
  close(): Promise<void>;
}

export function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export async function startMailCapture(): Promise<MailCapture> {
  const mails: Mail[] = [];
  const taken = new Set<Mail>();
  const waiters: Array<{ to: string; resolve: (m: Mail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: Mail = { to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQuotedPrintable(raw) };
        mails.push(mail);
        const w = waiters.findIndex((x) => mail.to.includes(x.to));
        if (w >= 0) {
          taken.add(mail);
          waiters.splice(w, 1)[0].resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next(to, timeoutMs = 15_000) {
      const ready = mails.find((m) => !taken.has(m) && m.to.includes(to));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          to,
          resolve: (m) => {
            clearTimeout(t);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) link in a mail's text. */
export function linkIn(mail: Mail): string {
  const m = /https?:\/\/[^\s"'<>]+/.exec(mail.text);
  if (!m) throw new Error(`no link in the mail:\n${mail.text}`);
  return m[0];
}
