// The limits on a record file, apart from the loader so that `arena replay
// --help` can state them without loading the record schemas.
/**
 * Limits on what `arena replay` reads. A 200-turn match record is a few MB;
 * these leave room for any real record and keep a hostile one from using up
 * memory or the stack.
 */
export const RECORD_LIMITS = {
  /** Bytes in a record file. */
  fileBytes: 64 * 1024 * 1024,
  /** Nesting of arrays and objects (a record needs about 8). */
  depth: 64,
  /** Characters in any one string (names, ids, messages). */
  stringChars: 64 * 1024,
} as const;
