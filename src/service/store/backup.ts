// A consistent copy of a data directory, whether a server is writing to it or
// not (so `arena admin backup` needs no lock). The copy opens as a store, and
// holds the platform key, so a server restored from it keeps its identity.
//
// What can change under a reader: store.json (replaced whole by compaction),
// the journal (appended; rotated and its old files removed by compaction),
// the match log (appended), and the files of matches still running (replaced
// whole); files of completed and aborted matches never change again. So the
// reader takes store.json and the journal (the complete lines), then the log,
// then the running matches' files, then store.json again: if the snapshot did
// not change, the journal replayed onto it without a gap, and every running
// file is at the version the log names, those reads are one moment of the
// store. The copy's store.json is that snapshot with the journal applied (a
// compacted document), so a backup has no journal and its format is as it
// was before the journal. A
// completion whose ratings had not reached store.json yet is re-applied when
// the copy opens, as after a crash. Otherwise it tries again. The final
// files are copied afterwards, at leisure.
import { copyFile, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fsyncDir } from './atomic-write';
import { DOC_FILE, emptyDoc, parseDoc } from './doc';
import { listJournals, replayJournals } from './journal';
import { LOG_FILE, MATCH_DIR, matchFile, parseEnvelope, parseLine } from './match-files';
import { isTerminal } from './match-index';
import { PRIVATE_DIR, readPrivateForBackup, STRIKES_LOG } from './owner-files';
import { makeDir } from '../../fs/make-dir';
import { PLATFORM_KEY_FILE } from '../../config/platform-key';
import { readIfExists, readTextIfExists } from '../../fs/read-if-exists';

export interface BackupOptions {
  /**
   * Runs the consistent read inside the store's write queue (an in-process
   * backup), passing the document in memory as store.json's text: one attempt suffices.
   */
  hold?: <T>(fn: (docText: string) => Promise<T>) => Promise<T>;
  /** Attempts before giving up on a store that never stops changing. */
  attempts?: number;
}

interface Snapshot {
  docText: string;
  log: Buffer;
  volatile: Map<string, string>;
  final: string[];
}

/** Copies the store in `src` into `out`, which must be new or empty. */
export async function backupDataDir(src: string, out: string, opts: BackupOptions = {}): Promise<void> {
  const from = resolve(src);
  const to = resolve(out);
  if (from === to) throw new Error('the backup directory must not be the data directory');
  if (
    !(await exists(join(from, DOC_FILE))) &&
    !(await exists(join(from, MATCH_DIR))) &&
    (await listJournals(from)).length === 0
  ) {
    throw new Error(`${from} holds no arena store`);
  }
  const created = await ensureEmpty(to);
  try {
    await copyStore(from, to, opts);
  } catch (err) {
    // A partial copy must not pass for a backup (it would open as a store missing data):
    // what this call wrote goes, and the directory too if this call made it.
    await rm(join(to, MATCH_DIR), { recursive: true, force: true }).catch(() => {});
    await rm(join(to, DOC_FILE), { force: true }).catch(() => {});
    await rm(join(to, PLATFORM_KEY_FILE), { force: true }).catch(() => {});
    if (created) await rm(to, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
}

async function copyStore(from: string, to: string, opts: BackupOptions): Promise<void> {
  let snap: Snapshot | null = null;
  if (opts.hold) {
    snap = await opts.hold((docText) => readSnapshot(from, docText));
    if (!snap) throw new Error('the store changed while it was held for a backup');
  } else {
    const attempts = opts.attempts ?? 200;
    for (let i = 0; i < attempts && !snap; i++) {
      snap = await readSnapshot(from);
      if (!snap) await new Promise((r) => setImmediate(r));
    }
    if (!snap) throw new Error(`the store in ${from} kept changing during ${attempts} attempts to copy it; try again`);
  }

  const outMatches = join(to, MATCH_DIR);
  await makeDir(outMatches, 0o700);
  const written: string[] = [];
  for (const [id, text] of snap.volatile) {
    const f = matchFile(outMatches, id);
    await writeFile(f, text, { mode: 0o600 });
    written.push(f);
  }
  await pool(snap.final, 16, async (id) => {
    const f = matchFile(outMatches, id);
    await copyFile(matchFile(join(from, MATCH_DIR), id), f);
    written.push(f);
  });
  // The owners' private data of the matches copied (files never change once written).
  const priv = await readPrivateForBackup(join(from, MATCH_DIR), new Set([...snap.volatile.keys(), ...snap.final]));
  const outPrivate = join(outMatches, PRIVATE_DIR);
  if (priv.files.length > 0 || priv.log.length > 0) {
    await makeDir(outPrivate, 0o700);
    await pool(priv.files, 16, async (name) => {
      const f = join(outPrivate, name);
      await copyFile(join(from, MATCH_DIR, PRIVATE_DIR, name), f);
      written.push(f);
    });
    const strikesOut = join(outPrivate, STRIKES_LOG);
    await writeFile(strikesOut, priv.log, { mode: 0o600 });
    written.push(strikesOut);
  }
  const logOut = join(outMatches, LOG_FILE);
  await writeFile(logOut, snap.log, { mode: 0o600 });
  const docOut = join(to, DOC_FILE);
  await writeFile(docOut, snap.docText, { mode: 0o600 });
  written.push(logOut, docOut);
  // The platform key too: a server restored from the copy signs handshakes with
  // the key bots already verify, not a new one. It never changes once made.
  const key = await readIfExists(join(from, PLATFORM_KEY_FILE));
  if (key) {
    const keyOut = join(to, PLATFORM_KEY_FILE);
    await writeFile(keyOut, key, { mode: 0o600 });
    written.push(keyOut);
  }
  // Durable when this returns: every file, then both directories.
  await pool(written, 16, async (f) => {
    const fh = await open(f, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  });
  if (priv.files.length > 0 || priv.log.length > 0) await fsyncDir(outPrivate);
  await fsyncDir(outMatches);
  await fsyncDir(to);
}

/** One consistent read of the mutable parts, or null if something changed meanwhile. */
async function readSnapshot(root: string, held?: string): Promise<Snapshot | null> {
  const docPath = join(root, DOC_FILE);
  const matches = join(root, MATCH_DIR);
  const docRaw = held === undefined ? await readTextIfExists(docPath) : null;
  let docText = held ?? '';
  if (held === undefined) {
    const doc = docRaw === null ? emptyDoc() : parseDoc(docRaw, docPath);
    try {
      await replayJournals(root, doc, false);
    } catch (err) {
      // Compaction moved on between reading store.json and its journal: try again.
      if (held === undefined && (await readTextIfExists(docPath)) !== docRaw) return null;
      throw err;
    }
    docText = JSON.stringify(doc);
  }
  const whole = (await readIfExists(join(matches, LOG_FILE))) ?? Buffer.alloc(0);
  let end = whole.lastIndexOf(0x0a) + 1; // a torn last append is not part of any moment
  let lines = parseLog(whole, end, root);
  const volatile = new Map<string, string>();

  if (lines.last) {
    const { id, v, off } = lines.last;
    const text = await readTextIfExists(matchFile(matches, id));
    const fileV = text === null ? 0 : parseEnvelope(text, matchFile(matches, id)).v;
    if (fileV === v - 1) {
      // That write had announced itself but not landed: it is not in this moment.
      end = off;
      lines = parseLog(whole, end, root);
    } else if (fileV !== v) {
      return null;
    }
  }
  for (const [id, { v, status }] of lines.latest) {
    if (isTerminal(status) && id !== lines.last?.id) continue;
    const text = await readTextIfExists(matchFile(matches, id));
    if (text === null || parseEnvelope(text, matchFile(matches, id)).v !== v) return null;
    volatile.set(id, text);
  }
  if (held === undefined && (await readTextIfExists(docPath)) !== docRaw) return null;
  const final = [...lines.latest].filter(([id, e]) => isTerminal(e.status) && !volatile.has(id)).map(([id]) => id);
  return { docText, log: whole.subarray(0, end), volatile, final };
}

interface Parsed {
  latest: Map<string, { v: number; status: string }>;
  last: { id: string; v: number; off: number } | null;
}

function parseLog(buf: Buffer, end: number, root: string): Parsed {
  const latest = new Map<string, { v: number; status: string }>();
  let last: Parsed['last'] = null;
  let off = 0;
  while (off < end) {
    const nl = buf.indexOf(0x0a, off);
    const line = parseLine(buf.subarray(off, nl).toString('utf8'), `${join(root, MATCH_DIR, LOG_FILE)} at byte ${off}`);
    latest.set(line.id, { v: line.v, status: line.m.status });
    last = { id: line.id, v: line.v, off };
    off = nl + 1;
  }
  return { latest, last };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Makes sure `dir` is empty, making it if missing; true when it was made here. */
async function ensureEmpty(dir: string): Promise<boolean> {
  try {
    const entries = await readdir(dir);
    if (entries.length > 0) throw new Error(`the backup directory ${dir} is not empty`);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await makeDir(dir, 0o700);
    return true;
  }
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
