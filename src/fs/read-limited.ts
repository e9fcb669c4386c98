// A stream read whole, but never more than a limit: a file, stdin or a
// server's answer can be endless (`@/dev/zero`, a pipe, a broken server), and
// read to the end would fill memory. Shared by the API client and the replay's
// record loader, each with its own limit and message.

/**
 * The stream's bytes; `tooLarge()` is thrown once they pass `limit` (leaving the loop cancels the stream: nothing more
 * is read).
 */
export async function readLimited(
  body: AsyncIterable<Uint8Array | string> | null,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
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
