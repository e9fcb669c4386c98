// A finished match's record must outlive a short database outage: its
// writes are retried while the store says it is unavailable (StoreUnavailable:
// a database store that lost its connection), for about half a minute, then
// given up as before. The file store never throws it, so nothing changes there.
import { StoreUnavailable } from '../store/types';

/** Waits between attempts: about 31 s in all. */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000, 8000, 8000, 8000];

/**
 * Runs write until it succeeds or fails otherwise; `landed` is asked after an
 * attempt that failed on an unavailable store, when a later one fails in
 * another way: a write can commit and its answer be lost with the connection,
 * and then its retry is refused as a conflict although the write is there.
 */
export async function retryWhileUnavailable<T>(
  write: () => Promise<T>,
  landed: () => Promise<T | null>,
  delays: readonly number[] = RETRY_DELAYS_MS,
): Promise<T> {
  let lostOne = false;
  for (let i = 0; ; i++) {
    try {
      return await write();
    } catch (err) {
      if (err instanceof StoreUnavailable && i < delays.length) {
        lostOne = true;
        await new Promise((r) => setTimeout(r, delays[i]));
        continue;
      }
      if (lostOne && !(err instanceof StoreUnavailable)) {
        const done = await landed().catch(() => null);
        if (done !== null) return done;
      }
      throw err;
    }
  }
}
