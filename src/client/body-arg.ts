// `--data` as curl and gh take it: a literal body, `@file` for a file's exact
// bytes, or `-` for stdin. Bytes are kept as read because they are signed.
// Files and stdin are read as streams (a pipe, `@<(command)` or a FIFO works)
// and only up to what the API takes: `@/dev/zero` is refused, not read forever.
import { createReadStream } from 'node:fs';
import { MAX_BODY_BYTES } from '../protocol/api';
import { ClientError } from './errors';
import { readLimited } from '../fs/read-limited';

export async function readBodyArg(
  arg: string | undefined,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<Uint8Array | undefined> {
  if (arg === undefined) return undefined;
  if (arg === '-') return readCapped(stdin, 'the body on stdin');
  if (arg.startsWith('@')) {
    const path = arg.slice(1);
    if (!path) throw new ClientError('--data @ needs a file name, e.g. --data @body.json');
    try {
      return await readCapped(createReadStream(path), `body file ${path}`);
    } catch (err) {
      if (err instanceof ClientError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      throw new ClientError(
        `cannot read body file ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'read failed')}`,
      );
    }
  }
  const body = Buffer.from(arg, 'utf8');
  if (body.length > MAX_BODY_BYTES) throw tooLarge('the --data body');
  return body;
}

/** The whole stream, or a ClientError as soon as it passes MAX_BODY_BYTES. */
function readCapped(stream: NodeJS.ReadableStream, what: string): Promise<Buffer> {
  return readLimited(stream, MAX_BODY_BYTES, () => tooLarge(what));
}

function tooLarge(what: string): ClientError {
  return new ClientError(`${what} is over ${MAX_BODY_BYTES} bytes, more than the API takes (413 too_large)`);
}
