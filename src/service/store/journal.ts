// The journal: every change to store.json's records since the snapshot was
// written, one JSON line per write of the store (`journal.<gen>.jsonl` in the
// data directory). A line is appended and fsynced before the write's promise
// resolves, so a write costs the size of what it changed, not of the store.
//
// A line: {"s":seq,"o":[[collection,id,record-or-null],...],"rt":ratingsThrough?}
// `s` counts up by one per line across files; the snapshot names the last
// line it includes (journalSeq), and replay skips lines up to it. Compaction
// starts a new file (gen + 1) for the lines after the snapshot, and removes
// the older files once the snapshot that includes them is durable.
import { open, readdir, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from './atomic-write';
import { COLLECTIONS, type Collection, type StoreDoc } from './doc';

const NAME = /^journal\.(\d{1,15})\.jsonl$/;

export function journalFile(dir: string, gen: number): string {
  return join(dir, `journal.${gen}.jsonl`);
}

/** The generations of the journal files in `dir`, oldest first. */
export async function listJournals(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  return names
    .flatMap((n) => {
      const m = NAME.exec(n);
      return m ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b);
}

export type Op = [Collection, string, unknown];

export interface Entry {
  s: number;
  o: Op[];
  rt?: number;
}

function parseEntry(text: string): Entry | null {
  let e: unknown;
  try {
    e = JSON.parse(text);
  } catch {
    return null;
  }
  const x = e as Entry | null;
  if (
    !x ||
    typeof x !== 'object' ||
    !Number.isSafeInteger(x.s) ||
    !Array.isArray(x.o) ||
    (x.rt !== undefined && typeof x.rt !== 'number')
  )
    return null;
  for (const op of x.o) {
    if (
      !Array.isArray(op) ||
      op.length !== 3 ||
      !(COLLECTIONS as readonly string[]).includes(op[0]) ||
      typeof op[1] !== 'string' ||
      op[1] === '__proto__' ||
      (op[2] !== null && typeof op[2] !== 'object')
    )
      return null;
  }
  return x;
}

/** Applies one entry to a document in memory. */
export function applyEntry(doc: StoreDoc, e: Entry): void {
  for (const [coll, id, rec] of e.o) {
    const map = doc[coll] as Record<string, unknown>;
    if (rec === null) delete map[id];
    else map[id] = rec;
  }
  if (e.rt !== undefined) doc.ratingsThrough = e.rt;
  doc.rev++;
  doc.journalSeq = e.s;
}

export interface Replayed {
  /** The newest generation (the one to append to), or null if there is no journal file. */
  gen: number | null;
  /** Its size once a torn tail is cut. */
  size: number;
  /** Bytes across all files, the measure compaction goes by. */
  bytes: number;
}

/**
 * Replays the journal files of `dir` onto `doc` (the snapshot). Only the last
 * line of the newest file can be unfinished (a crash mid-append; its write was
 * never acknowledged): with `repair` it is cut off, otherwise ignored. Any
 * other damage, or a gap in the sequence, is an error: replaying past it would
 * silently drop acknowledged writes.
 */
export async function replayJournals(dir: string, doc: StoreDoc, repair: boolean): Promise<Replayed> {
  const gens = await listJournals(dir);
  let size = 0;
  let bytes = 0;
  for (const [i, gen] of gens.entries()) {
    const file = journalFile(dir, gen);
    const buf = await readFile(file);
    const newest = i === gens.length - 1;
    let off = 0;
    let good = 0;
    while (off < buf.length) {
      const nl = buf.indexOf(0x0a, off);
      const entry = nl === -1 ? null : parseEntry(buf.subarray(off, nl).toString('utf8'));
      if (!entry) {
        // A torn tail: no newline, or (power loss) a last line that does not parse.
        if (newest && (nl === -1 || nl === buf.length - 1)) break;
        throw new Error(
          `${file} is damaged at byte ${off}; restore the data directory from a backup (arena admin backup)`,
        );
      }
      const seq = doc.journalSeq ?? 0;
      if (entry.s > seq) {
        if (entry.s !== seq + 1)
          throw new Error(
            `${file} continues at write ${entry.s} but the store is at ${seq}: journal lines are missing; restore from a backup`,
          );
        applyEntry(doc, entry);
      }
      off = nl + 1;
      good = off;
    }
    if (good !== buf.length && repair) {
      await truncate(file, good);
      const fh = await open(file, 'r+');
      await fh.sync().finally(() => fh.close());
    }
    bytes += good;
    if (newest) size = good;
  }
  return { gen: gens.length ? gens[gens.length - 1] : null, size, bytes };
}

/**
 * The appending end of the newest journal file. Appends made while an fsync
 * is under way are written and fsynced together once it returns (group
 * commit): concurrent writes share the disk's latency instead of queueing
 * behind each other's. Lines reach the file in the order they were appended.
 */
export class JournalWriter {
  private pending: { line: string; done: () => void; fail: (err: Error) => void }[] = [];
  private flushing: Promise<void> | null = null;
  private failed: Error | null = null;

  private constructor(
    private readonly dir: string,
    private fh: FileHandle,
    public gen: number,
    /** Bytes in the current file, written and fsynced. */
    public size: number,
  ) {}

  /** Opens generation `gen` for appending (creating it durably if new). */
  static async open(dir: string, gen: number, size: number): Promise<JournalWriter> {
    const fh = await open(journalFile(dir, gen), 'a', 0o600);
    if (size === 0) await fsyncDir(dir);
    return new JournalWriter(dir, fh, gen, size);
  }

  /** Appends one line; resolves once it is durable. After a failure every append fails (the store must be reopened). */
  append(line: string): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<void>((done, fail) => {
      this.pending.push({ line, done, fail });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      const bytes = Buffer.from(batch.map((b) => b.line).join(''));
      const before = this.size;
      try {
        await this.fh.write(bytes);
        await this.fh.datasync();
        this.size = before + bytes.length;
        for (const b of batch) b.done();
      } catch (err) {
        // Cut what may have landed, so no later line follows a broken one; the
        // writes in memory are ahead of the disk now, so nothing more is written.
        let why = err as Error;
        try {
          await truncate(journalFile(this.dir, this.gen), before);
          await this.fh.datasync();
        } catch (cut) {
          why = new JournalBroken(err as Error, cut as Error);
        }
        this.failed = why;
        for (const b of [...batch, ...this.pending.splice(0)]) b.fail(why);
      }
    }
    this.flushing = null;
  }

  /** Resolves once every line appended so far is durable (or failed). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.failed) throw this.failed;
  }

  /** Continues in a new file (gen + 1) once what was appended is durable; returns the generation just closed. */
  async rotate(): Promise<number> {
    await this.drain();
    const next = await JournalWriter.open(this.dir, this.gen + 1, 0);
    const old = this.gen;
    const oldFh = this.fh;
    this.fh = next.fh;
    this.gen = next.gen;
    this.size = 0;
    await oldFh.close().catch(() => {});
    return old;
  }

  async close(): Promise<void> {
    await this.drain().catch(() => {});
    await this.fh.close();
  }
}

/** An append failed and could not be undone: the store must stop writing until reopened. */
export class JournalBroken extends Error {
  constructor(cause: Error, repair: Error) {
    super(`a journal append failed (${cause.message}) and could not be undone (${repair.message}); restart the server`);
    this.name = 'JournalBroken';
  }
}
