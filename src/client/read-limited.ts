// A body read whole, but never more than a limit: a server that is not ours,
// or a broken one, can send anything, and so can a file or stdin given to
// `--data` (`@/dev/zero`); read to the end they would fill memory. (Match
// records, which may be larger, have their own limit: src/tui/load.ts.)
import { ClientError } from './errors';

/** Far above any API answer (lists of bots and keys, a page of matches, the leaderboard). */
export const RESPONSE_LIMIT_BYTES = 16 * 1024 * 1024;

/** The body's bytes; `tooLarge()` is thrown once they pass `limit` (leaving the loop cancels the body: nothing more is read). */
export async function readLimited(body: AsyncIterable<Uint8Array | string> | null, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body) {
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += bytes.length;
      if (total > limit) throw tooLarge();
      chunks.push(bytes);
    }
  }
  return Buffer.concat(chunks, total);
}

/** A server's answer, up to RESPONSE_LIMIT_BYTES; past it a ClientError naming `url`. */
export function readAnswer(body: AsyncIterable<Uint8Array> | null, url: string): Promise<Buffer> {
  return readLimited(body, RESPONSE_LIMIT_BYTES, () => new ClientError(`${url} answered with more than ${RESPONSE_LIMIT_BYTES} bytes; is the URL an arena server?`));
}
