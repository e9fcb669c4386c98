// A server's answer read whole, but never more than a limit: a server that is
// not ours, or a broken one, can send anything, and an endless body would
// otherwise be read until memory runs out. (Match records, which may be larger,
// have their own limit: src/tui/load.ts.)
import { ClientError } from './errors';

/** Far above any API answer (lists of bots and keys, a page of matches, the leaderboard). */
export const RESPONSE_LIMIT_BYTES = 16 * 1024 * 1024;

/** The body's bytes; a ClientError naming `url` once they pass `limit` (nothing more is read). */
export async function readLimited(body: AsyncIterable<Uint8Array> | null, url: string, limit = RESPONSE_LIMIT_BYTES): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body) {
    // Leaving the loop early cancels the body.
    for await (const chunk of body) {
      total += chunk.length;
      if (total > limit) throw new ClientError(`${url} answered with more than ${limit} bytes; is the URL an arena server?`);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks, total);
}
