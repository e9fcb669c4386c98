// The writer's side of the match files: opens the log (repairing the one write
// a crash can leave unfinished), keeps the in-memory index, and writes a match
// as "log line first, then file" so that at open only the last line needs checking.
import { open, rm, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { tempPathFor, writeFileAtomic } from './atomic-write';
import {
  LOG_FILE,
  MATCH_DIR,
  lastLine,
  matchFile,
  parseLine,
  readEnvelope,
  scanLines,
  type MatchEnvelope,
} from './match-files';
import { MatchIndex, summaryOf, type IndexEntry, type LogLine } from './match-index';
import type { RatingRecord, StoredMatch, StoredMatchSummary } from './types';
import { makeDir } from '../../fs/make-dir';

/** A completed match whose line lies after the document's `ratingsThrough`. */
export interface PendingCompletion {
  id: string;
  off: number;
}

export class MatchLog {
  readonly index = new MatchIndex();
  private constructor(
    readonly dir: string,
    private readonly logPath: string,
    private appender: FileHandle,
    private reader: FileHandle,
    private size: number,
  ) {}

  /**
   * Opens matches/ under the data directory. Writes are serialized and each
   * appends its line before writing its file, so only the last line can
   * announce a write that never finished (its file missing or one version
   * behind): that line is cut off. Returns the completions after `ratingsThrough`.
   */
  static async open(dataDir: string, ratingsThrough: number): Promise<{ log: MatchLog; pending: PendingCompletion[] }> {
    const dir = join(dataDir, MATCH_DIR);
    await makeDir(dir, 0o700);
    const logPath = join(dir, LOG_FILE);
    const appender = await open(logPath, 'a', 0o600);
    let reader: FileHandle | null = null;
    try {
      reader = await open(logPath, 'r');
      let size = (await reader.stat()).size;
      // A torn append (kill -9 mid-write) leaves a line without its newline.
      const end = await scanEnd(reader, size);
      if (end !== size) {
        await truncate(logPath, end);
        size = end;
      }
      const last = await lastLine(reader, size);
      if (last) {
        const line = parseLine(last.text, `${logPath} at byte ${last.off}`);
        const env = await readEnvelope(dir, line.id);
        if (!env || env.v === line.v - 1) {
          await truncate(logPath, last.off);
          await appender.sync();
          await rm(tempPathFor(matchFile(dir, line.id)), { force: true });
          size = last.off;
        } else if (env.v !== line.v) {
          throw new Error(
            `${matchFile(dir, line.id)} is at write ${env.v} but the match log says ${line.v}; restore from a backup`,
          );
        }
      }
      const log = new MatchLog(dir, logPath, appender, reader, size);
      const pending: PendingCompletion[] = [];
      await scanLines(reader, size, (text, off, len) => {
        const line = parseLine(text, `${logPath} at byte ${off}`);
        log.index.apply(line, off, len);
        if (line.m.status === 'completed' && off > ratingsThrough) pending.push({ id: line.id, off });
      });
      return { log, pending };
    } catch (err) {
      await appender.close().catch(() => {});
      await reader?.close().catch(() => {});
      throw err;
    }
  }

  /**
   * Writes a version of a match: its log line (fsynced), then its file
   * (atomically). Returns the line's offset. If the file cannot be written the
   * line is cut off again, so a failed write leaves nothing behind; if even
   * that fails, the error says so and the caller must stop writing.
   */
  async write(match: StoredMatch, ratings: RatingRecord[] | null): Promise<{ entry: IndexEntry; off: number }> {
    const known = this.index.get(match.id);
    const v = (known?.v ?? 0) + 1;
    const line: LogLine = { id: match.id, v, m: summaryOf(match) };
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    const off = this.size;
    await this.appender.write(bytes);
    await this.appender.sync();
    try {
      const env: MatchEnvelope = { v, match, ratings };
      await writeFileAtomic(matchFile(this.dir, match.id), JSON.stringify(env));
    } catch (err) {
      try {
        await truncate(this.logPath, off);
        await this.appender.sync();
      } catch (cut) {
        throw new LogBroken(err as Error, cut as Error);
      }
      throw err;
    }
    this.size = off + bytes.length;
    return { entry: this.index.apply(line, off, bytes.length - 1), off };
  }

  async summary(entry: IndexEntry): Promise<StoredMatchSummary> {
    const buf = Buffer.alloc(entry.len);
    await this.reader.read(buf, 0, entry.len, entry.off);
    return parseLine(buf.toString('utf8'), `${this.logPath} at byte ${entry.off}`).m;
  }

  async envelope(id: string): Promise<MatchEnvelope | null> {
    return readEnvelope(this.dir, id);
  }

  async close(): Promise<void> {
    await this.appender.close();
    await this.reader.close();
  }
}

/** A match write failed and the log could not be repaired: the store must stop writing until reopened. */
export class LogBroken extends Error {
  constructor(cause: Error, repair: Error) {
    super(
      `a match write failed (${cause.message}) and the match log could not be repaired (${repair.message}); restart the server`,
    );
    this.name = 'LogBroken';
  }
}

/** Where the last complete line ends (a torn tail excluded). */
async function scanEnd(fh: FileHandle, size: number): Promise<number> {
  if (size === 0) return 0;
  const one = Buffer.alloc(1);
  await fh.read(one, 0, 1, size - 1);
  if (one[0] === 0x0a) return size;
  // Look back for the newline before the torn piece.
  let back = Math.min(size, 4096);
  for (;;) {
    const buf = Buffer.alloc(back);
    await fh.read(buf, 0, back, size - back);
    const nl = buf.lastIndexOf(0x0a);
    if (nl !== -1) return size - back + nl + 1;
    if (back === size) return 0;
    back = Math.min(size, back * 4);
  }
}
