// The file store's private owner data (OwnerMatchData), apart from the public
// match files: matches/private/<matchId>.<botId>.json per finished match and
// seated bot (written atomically, never changed), and matches/private/strikes.log,
// one line per strike of any bot, appended, so a bot's strike log pages
// without reading match files. The log's per-bot index (byte ranges) is built
// on first use, inside the store's write queue, and kept up to date by appends.
import { open, readdir, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { BotStrike, BotStrikePage } from '../../protocol';
import { makeDir } from '../../fs/make-dir';
import { writeFileAtomic } from './atomic-write';
import { isSafeId } from './ids';
import { openForScan, scanLines } from './match-files';
import { InvalidCursor, type OwnerMatchData, type StrikeQuery } from './types';
import { readTextIfExists } from '../../fs/read-if-exists';

export const PRIVATE_DIR = 'private';
export const STRIKES_LOG = 'strikes.log';

/** One line of strikes.log. */
interface StrikeLine {
  b: string;
  s: BotStrike;
}

export function privateFileName(matchId: string, botId: string): string {
  return `${matchId}.${botId}.json`;
}

export class OwnerFiles {
  readonly dir: string;
  /** Per bot, its strike lines' byte ranges, oldest first; null until first used. */
  private index: Map<string, Array<{ off: number; len: number }>> | null = null;
  /** Pairs (match/bot) whose strikes are in the log: a retried write appends none again. */
  private logged = new Set<string>();
  private size = 0;
  private fh: FileHandle | null = null;

  constructor(matchesDir: string) {
    this.dir = join(matchesDir, PRIVATE_DIR);
  }

  private get logFile(): string {
    return join(this.dir, STRIKES_LOG);
  }

  get isReady(): boolean {
    return this.index !== null;
  }

  /** Reads the log into the index, cutting a torn last line. Call inside the write queue. */
  async ready(): Promise<void> {
    if (this.index) return;
    await makeDir(this.dir, 0o700);
    const index = new Map<string, Array<{ off: number; len: number }>>();
    const scan = await openForScan(this.logFile);
    let end = 0;
    if (scan) {
      try {
        end = await scanLines(scan.fh, scan.size, (text, off, len) => {
          const line = JSON.parse(text) as StrikeLine;
          const list = index.get(line.b);
          if (list) list.push({ off, len });
          else index.set(line.b, [{ off, len }]);
          this.logged.add(`${line.s.matchId}/${line.b}`);
        });
      } finally {
        await scan.fh.close();
      }
      if (end < scan.size) await truncate(this.logFile, end);
    }
    this.size = end;
    this.index = index;
  }

  /**
   * Call inside the write queue, after ready(): strikes first, then the file (so a retry after a crash between the two
   * completes it).
   */
  async put(matchId: string, botId: string, data: OwnerMatchData): Promise<void> {
    const pair = `${matchId}/${botId}`;
    if (data.strikes.length > 0 && !this.logged.has(pair)) {
      const lines = data.strikes.map((s) =>
        JSON.stringify({ b: botId, s: { ...s, matchId, at: data.endedAt } } satisfies StrikeLine),
      );
      const text = lines.map((l) => l + '\n').join('');
      this.fh ??= await open(this.logFile, 'a', 0o600);
      try {
        await this.fh.write(text);
        await this.fh.sync();
      } catch (err) {
        // Part of the text may be in the file: cut it, so the next append starts where the index ends.
        await this.fh.truncate(this.size).catch(() => {});
        throw err;
      }
      const list = this.index!.get(botId) ?? [];
      let off = this.size;
      for (const l of lines) {
        const len = Buffer.byteLength(l);
        list.push({ off, len });
        off += len + 1;
      }
      this.index!.set(botId, list);
      this.size = off;
      this.logged.add(pair);
    }
    await writeFileAtomic(join(this.dir, privateFileName(matchId, botId)), JSON.stringify(data));
  }

  async get(matchId: string, botId: string): Promise<OwnerMatchData | null> {
    if (!isSafeId(matchId) || !isSafeId(botId)) return null;
    const text = await readTextIfExists(join(this.dir, privateFileName(matchId, botId)));
    return text === null ? null : (JSON.parse(text) as OwnerMatchData);
  }

  /** Call after ready(). Cursors count lines from the oldest: a later append never shifts them. */
  async list(botId: string, query: StrikeQuery): Promise<BotStrikePage> {
    const all = this.index!.get(botId) ?? [];
    let before = all.length;
    if (query.cursor) {
      const m = /^n([0-9]{1,12})$/.exec(Buffer.from(query.cursor, 'base64url').toString('latin1'));
      if (!m || Number(m[1]) > all.length || Number(m[1]) < 1) throw new InvalidCursor(query.cursor);
      before = Number(m[1]);
    }
    const from = Math.max(0, before - query.limit);
    const ranges = all.slice(from, before).reverse();
    if (ranges.length === 0) return { strikes: [], next: null };
    const fh = await open(this.logFile, 'r');
    try {
      const strikes = await Promise.all(
        ranges.map(async ({ off, len }) => {
          const buf = Buffer.alloc(len);
          await fh.read(buf, 0, len, off);
          return (JSON.parse(buf.toString('utf8')) as StrikeLine).s;
        }),
      );
      return { strikes, next: from > 0 ? Buffer.from(`n${from}`).toString('base64url') : null };
    } finally {
      await fh.close();
    }
  }

  async close(): Promise<void> {
    await this.fh?.close();
    this.fh = null;
  }
}

/**
 * For a backup: the private files of the matches the copy holds, and the strike
 * lines of those matches. Private files never change once written; the log is cut
 * at its last complete line.
 */
export async function readPrivateForBackup(
  matchesDir: string,
  matchIds: Set<string>,
): Promise<{ files: string[]; log: Buffer }> {
  const dir = join(matchesDir, PRIVATE_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], log: Buffer.alloc(0) };
    throw err;
  }
  const files = names.filter((n) => n.endsWith('.json') && !n.startsWith('.') && matchIds.has(n.split('.')[0]));
  let whole: Buffer;
  try {
    whole = await readFile(join(dir, STRIKES_LOG));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    whole = Buffer.alloc(0);
  }
  const kept: Buffer[] = [];
  let off = 0;
  for (let nl = whole.indexOf(0x0a, off); nl !== -1; nl = whole.indexOf(0x0a, off)) {
    const line = whole.subarray(off, nl + 1);
    try {
      if (matchIds.has((JSON.parse(line.toString('utf8')) as StrikeLine).s.matchId)) kept.push(line);
    } catch {
      // a line that does not parse is not copied
    }
    off = nl + 1;
  }
  return { files, log: Buffer.concat(kept) };
}

/**
 * Every private record of a data directory, for an export: those with strikes in the
 * strike log's order (so the copy's logs keep their order), then the rest.
 */
export async function readAllPrivate(
  matchesDir: string,
): Promise<{ matchId: string; botId: string; data: OwnerMatchData }[]> {
  const dir = join(matchesDir, PRIVATE_DIR);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const order = new Map<string, number>();
  const log = await readFile(join(dir, STRIKES_LOG), 'utf8').catch(() => '');
  for (const text of log.split('\n').slice(0, -1)) {
    const line = JSON.parse(text) as StrikeLine;
    const name = privateFileName(line.s.matchId, line.b);
    if (!order.has(name)) order.set(name, order.size);
  }
  names.sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const [matchId, botId] = name.slice(0, -'.json'.length).split('.');
      return { matchId, botId, data: JSON.parse(await readFile(join(dir, name), 'utf8')) as OwnerMatchData };
    }),
  );
}
