// Result files: written atomically (temp file + rename in the same directory)
// so a crash or Ctrl-C never leaves half a JSON document behind.
import { rename, writeFile, rm } from 'node:fs/promises';
import { join, dirname, basename } from 'node:path';
import { makeDir } from '../fs/make-dir';
import type { MatchRecord } from '../protocol/index';

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeTextAtomic(path, JSON.stringify(value, null, 2) + '\n');
}

export async function writeTextAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await makeDir(dir);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    await writeFile(tmp, text, { mode: 0o644 });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Stands in for the replay while the rest of the record is indented (control characters cannot occur in JSON text
 * unescaped).
 */
const REPLAY_SLOT = '\u0000replay';

/**
 * A match record as a file: its fields indented, each replay event on one line.
 * Half the size of indenting everything (a long game is ~900 events), still
 * one event per line for grep and diff; any JSON reader takes it as it is.
 */
export function matchRecordText(record: MatchRecord): string {
  const text = JSON.stringify(
    record,
    function (this: unknown, key, value: unknown) {
      return key === 'replay' && this === record ? REPLAY_SLOT : value;
    },
    2,
  );
  const events = record.replay.map((e) => `    ${JSON.stringify(e)}`).join(',\n');
  // The last occurrence: only numbers and the rules version follow the replay, so no name can be mistaken for the slot.
  const slot = JSON.stringify(REPLAY_SLOT);
  const at = text.lastIndexOf(slot);
  return `${text.slice(0, at)}${events ? `[\n${events}\n  ]` : '[]'}${text.slice(at + slot.length)}\n`;
}

/**
 * Match ids: `m-<yyyymmddhhmmss>-<tag>-<game>`, e.g. `m-20261122003015-k3x9-0007`.
 * The UTC start time of the tournament comes first so ids sort by time; the
 * random tag keeps two tournaments started in the same second apart; the
 * zero-padded game number sorts the games of one tournament.
 */
export function matchIdFactory(start: Date, tag: string = randomTag()): (game: number) => string {
  const stamp = start.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return (game) => `m-${stamp}-${tag}-${String(game).padStart(4, '0')}`;
}

function randomTag(): string {
  return Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
}

/** Creates `dir` if needed and proves it writable, so a bad --out fails before any game, not after. */
export async function ensureWritableDir(dir: string): Promise<void> {
  await makeDir(dir);
  const probe = join(dir, `.arena-write-test.${process.pid}`);
  await writeFile(probe, '');
  await rm(probe, { force: true });
}
