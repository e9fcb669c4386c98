// A live viewer's socket is written without waiting for it to drain (every
// viewer of a match gets the same chunk at once). One that stops reading
// must not make the server hold its stream without bound: past `limit`
// unsent bytes it is dropped, and its client resumes with Last-Event-ID.
import type { ServerResponse } from 'node:http';

/** Unsent bytes a live viewer may leave behind before it is dropped. */
export const MAX_VIEWER_BACKLOG = 4 * 1024 * 1024;

/** Writes the chunk, or destroys the response when its backlog is over `limit`; false once dropped. */
export function writeOrDrop(res: ServerResponse, chunk: string, limit = MAX_VIEWER_BACKLOG): boolean {
  if (res.destroyed) return false;
  if (res.writableLength > limit) {
    res.destroy();
    return false;
  }
  res.write(chunk);
  return true;
}
