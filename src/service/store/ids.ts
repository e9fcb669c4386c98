// Record ids: random (nothing to enumerate or guess), URL-safe, and prefixed
// with their kind so a misplaced id is obvious in a log or a bug report.
import { randomBytes } from 'node:crypto';

export type IdKind = 'u' | 'k' | 'b' | 'm' | 'c' | 'wh' | 'msg';

/** e.g. `b_Xy3…`: the kind, an underscore, 96 random bits in base64url. */
export function newId(kind: IdKind): string {
  return `${kind}_${randomBytes(12).toString('base64url')}`;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An id that is safe to use as a file name (no separators, no dots, bounded). */
export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id);
}
