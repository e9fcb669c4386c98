// `--data` as curl and gh take it: a literal body, `@file` for a file's exact
// bytes, or `-` for stdin. Bytes are kept as read because they are signed.
import { readFileSync } from 'node:fs';
import { ClientError } from './signed-request';

export async function readBodyArg(arg: string | undefined, stdin: NodeJS.ReadableStream = process.stdin): Promise<Uint8Array | undefined> {
  if (arg === undefined) return undefined;
  if (arg === '-') return readAll(stdin);
  if (arg.startsWith('@')) {
    const path = arg.slice(1);
    if (!path) throw new ClientError('--data @ needs a file name, e.g. --data @body.json');
    try {
      return readFileSync(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new ClientError(`cannot read body file ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'read failed')}`);
    }
  }
  return Buffer.from(arg, 'utf8');
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
