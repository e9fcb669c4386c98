// A server's answer read whole, up to a limit: a server that is not ours, or
// a broken one, can send anything. (Match records, which may be larger, have
// their own limit: src/tui/load.ts.)
import { readLimited } from '../fs/read-limited';
import { ClientError } from './errors';

/** Far above any API answer (lists of bots and keys, a page of matches, the leaderboard). */
export const RESPONSE_LIMIT_BYTES = 16 * 1024 * 1024;

/** A server's answer, up to RESPONSE_LIMIT_BYTES; past it a ClientError naming `url`. */
export function readAnswer(body: AsyncIterable<Uint8Array> | null, url: string): Promise<Buffer> {
  return readLimited(
    body,
    RESPONSE_LIMIT_BYTES,
    () => new ClientError(`${url} answered with more than ${RESPONSE_LIMIT_BYTES} bytes; is the URL an arena server?`),
  );
}
