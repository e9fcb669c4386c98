// Matches on disk: one file per match (matches/<id>.json, its full record and,
// once completed, the ratings it set) and an append-only log (matches/index.log)
// with one line per match write: the match's summary and its write count.
// Writing a match costs one line and one file, whatever the number stored.
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogLine } from './match-index';
import type { RatingRecord, StoredMatch } from './types';
import { readTextIfExists } from '../../fs/read-if-exists';

export const MATCH_DIR = 'matches';
export const LOG_FILE = 'index.log';

/** The content of matches/<id>.json. `v` equals the `v` of the log line that announced this write. */
export interface MatchEnvelope {
  v: number;
  match: StoredMatch;
  /** For a completed match: the seats' ratings after it (re-applied at open if the document missed them). */
  ratings: RatingRecord[] | null;
}

export function matchFile(matchesDir: string, id: string): string {
  return join(matchesDir, `${id}.json`);
}

export function parseEnvelope(text: string, file: string): MatchEnvelope {
  let env: MatchEnvelope;
  try {
    env = JSON.parse(text) as MatchEnvelope;
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message})`);
  }
  if (!env || typeof env.v !== 'number' || !env.match || typeof env.match.id !== 'string') {
    throw new Error(`${file} is not a stored match`);
  }
  return env;
}

/** The match file's envelope, or null when there is none. */
export async function readEnvelope(matchesDir: string, id: string): Promise<MatchEnvelope | null> {
  const file = matchFile(matchesDir, id);
  const text = await readTextIfExists(file);
  return text === null ? null : parseEnvelope(text, file);
}

export function parseLine(text: string, where: string): LogLine {
  let line: LogLine;
  try {
    line = JSON.parse(text) as LogLine;
  } catch (err) {
    throw new Error(`${where}: not valid JSON (${(err as Error).message})`);
  }
  if (!line || typeof line.id !== 'string' || typeof line.v !== 'number' || !line.m || !Array.isArray(line.m.players)) {
    throw new Error(`${where}: not a match log line`);
  }
  return line;
}

const CHUNK = 1 << 20;
const NL = 0x0a;

/**
 * Calls onLine for every complete line (ending in a newline) of the first
 * `size` bytes, with its byte range (newline excluded); returns where the
 * last complete line ends. Reads in chunks, so a large log costs no large buffer.
 */
export async function scanLines(
  fh: FileHandle,
  size: number,
  onLine: (text: string, off: number, len: number) => void,
): Promise<number> {
  let pending: Buffer[] = [];
  let pendingLen = 0;
  let lineStart = 0;
  let pos = 0;
  const buf = Buffer.allocUnsafe(CHUNK);
  while (pos < size) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, size - pos), pos);
    if (bytesRead === 0) break;
    let from = 0;
    for (let i = buf.indexOf(NL, 0); i !== -1 && i < bytesRead; i = buf.indexOf(NL, i + 1)) {
      const piece = buf.subarray(from, i);
      const text = pendingLen ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8');
      onLine(text, lineStart, pendingLen + piece.length);
      pending = [];
      pendingLen = 0;
      from = i + 1;
      lineStart = pos + from;
    }
    if (from < bytesRead) {
      pending.push(Buffer.from(buf.subarray(from, bytesRead)));
      pendingLen += bytesRead - from;
    }
    pos += bytesRead;
  }
  return lineStart;
}

/** The last complete line of the first `end` bytes (which end in a newline), or null for an empty log. */
export async function lastLine(
  fh: FileHandle,
  end: number,
): Promise<{ text: string; off: number; len: number } | null> {
  if (end === 0) return null;
  let back = Math.min(end, 4096);
  for (;;) {
    const buf = Buffer.alloc(back);
    await fh.read(buf, 0, back, end - back);
    // buf ends with the final newline; look for the one before it.
    const prev = buf.lastIndexOf(NL, back - 2);
    if (prev !== -1 || back === end) {
      const start = end - back + prev + 1;
      return { text: buf.subarray(prev + 1, back - 1).toString('utf8'), off: start, len: end - 1 - start };
    }
    back = Math.min(end, back * 4);
  }
}

export async function openForScan(file: string): Promise<{ fh: FileHandle; size: number } | null> {
  try {
    const fh = await open(file, 'r');
    return { fh, size: (await fh.stat()).size };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
