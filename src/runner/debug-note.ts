// A bot's notes on a decision (DecisionResponse.debug): bounded before they
// are kept, never a strike. Only the bot's owner ever sees them (local
// records); public records carry none (the server strips them: withoutNotes).
import type { MatchRecord } from '../protocol';

/** The most a note keeps: a string's UTF-8 bytes, or an object's JSON bytes. */
export const DEBUG_NOTE_BYTES = 2048;

/** A kept note: the string or object as sent, or the first DEBUG_NOTE_BYTES bytes of it as text, marked truncated. */
export type DebugNote = { debug: string | Record<string, unknown>; debugTruncated?: true };

/**
 * Bounds what a bot sent as `debug`: a string or a plain JSON object is kept
 * whole up to DEBUG_NOTE_BYTES; a longer one is cut to that many bytes (an
 * object as its JSON text) and marked. Anything else (numbers, arrays, null) is dropped.
 */
export function boundDebugNote(raw: unknown): DebugNote | undefined {
  if (typeof raw === 'string') {
    if (raw.length * 3 <= DEBUG_NOTE_BYTES || Buffer.byteLength(raw, 'utf8') <= DEBUG_NOTE_BYTES) return { debug: raw };
    return { debug: cutUtf8(raw), debugTruncated: true };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const json = JSON.stringify(raw);
  if (Buffer.byteLength(json, 'utf8') <= DEBUG_NOTE_BYTES) return { debug: raw as Record<string, unknown> };
  return { debug: cutUtf8(json), debugTruncated: true };
}

/** The longest prefix of `s` within DEBUG_NOTE_BYTES bytes, never splitting a character. */
function cutUtf8(s: string): string {
  const b = Buffer.from(s, 'utf8');
  let end = DEBUG_NOTE_BYTES;
  // Back up over continuation bytes (10xxxxxx) to a character start.
  while (end > 0 && (b[end] & 0xc0) === 0x80) end--;
  return b.subarray(0, end).toString('utf8');
}

/** The record as the public may see it: every decision's notes removed (times stay). */
export function withoutNotes(match: MatchRecord): MatchRecord {
  if (!match.decisions?.some((d) => d.debug !== undefined)) return match;
  return { ...match, decisions: match.decisions.map(({ debug: _d, debugTruncated: _t, ...rest }) => rest) };
}
