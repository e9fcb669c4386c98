// Finding and reading a match record: a file or a pipe, the newest record in
// a directory (as `arena play --out DIR` writes them), stdin (`-`), or a match
// id fetched from a server (GET {server}/matches/{id}). Each way is a RecordSource; the first that
// claims a reference loads it. A record is untrusted input: anything that is not a
// regular file or a pipe of sensible size and shape is refused with one clear message.
import { constants } from 'node:fs';
import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import type { MatchRecord } from '../protocol/match';
import { MatchRecordHeaderSchema } from '../protocol/match-header';
import { RECORD_LIMITS } from './record-limits';
import { describeRecordIssue } from './record-issue';
import { replaceControls } from '../text/visible';
import { errnoText } from '../fs/errno-text';
import { readLimited } from '../fs/read-limited';

export type LoadErrorCode =
  | 'not_found'
  | 'empty_dir'
  | 'not_json'
  | 'not_a_record'
  | 'needs_server'
  | 'unreadable'
  | 'not_a_file'
  | 'too_large'
  | 'too_deep'
  | 'too_long'
  | 'still_running'
  | 'server_error';

export class RecordLoadError extends Error {
  constructor(
    readonly code: LoadErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RecordLoadError';
  }
}

export { RECORD_LIMITS };

export interface LoadedRecord {
  record: MatchRecord;
  /** Where it came from, for messages: a path or a URL. */
  origin: string;
}

/** One way of turning a reference (path, directory, match id) into a record. */
export interface RecordSource {
  /** True when this source is responsible for the reference; it then loads it or throws. */
  claims(ref: string): Promise<boolean>;
  /** parse: how the text becomes a record (default parseRecord, the full schema check). */
  load(ref: string, parse?: RecordParser): Promise<LoadedRecord>;
}

/** Text and where it came from, to a record; throws RecordLoadError. */
export type RecordParser = (text: string, from: string) => MatchRecord | Promise<MatchRecord>;

// Keys and values quoted from a file may hold control characters; never print them raw.
const printable = (s: string) => replaceControls(s, '\ufffd');

function errnoWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return (
    errnoText(err) ?? (code ? `cannot read it (${code})` : `cannot read it (${(err as Error)?.message ?? String(err)})`)
  );
}

function unreadable(path: string, err: unknown): RecordLoadError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return new RecordLoadError(
    code === 'ENOENT' || code === 'ENOTDIR' ? 'not_found' : 'unreadable',
    `${printable(path)}: ${errnoWords(err)}`,
  );
}

function kindOf(s: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

const MiB = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;

/**
 * Reads a record file's text: a regular file or a pipe (checked on the open
 * descriptor, so a path swapped after a check cannot slip past it) of at most
 * RECORD_LIMITS.fileBytes. The open is O_NONBLOCK, so neither a device nor a
 * FIFO that nobody writes to can make it wait.
 */
export async function readRecordFile(path: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw unreadable(path, err);
  }
  try {
    const info = await handle.stat();
    const pipe = info.isFIFO();
    if (!pipe && !info.isFile()) {
      throw new RecordLoadError(
        'not_a_file',
        `${printable(path)} is ${kindOf(info)}, not a regular file or a pipe; pass a match record file or a directory of them`,
      );
    }
    const limit = RECORD_LIMITS.fileBytes;
    if (info.size > limit) throw tooLarge(path, info.size);
    // Read to the end, but never past the limit: the file may grow while we read.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(limit + 1 - total, 1024 * 1024));
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buf, 0, buf.length, null));
      } catch (err) {
        // A pipe whose writer has not written yet (`<(gunzip -c m.json.gz)`): wait for it.
        if (pipe && (err as NodeJS.ErrnoException).code === 'EAGAIN') {
          await sleep(PIPE_WAIT_MS);
          continue;
        }
        throw err;
      }
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) throw overLimit(path);
    }
    // A FIFO nobody has opened for writing reads as empty at once.
    if (pipe && total === 0) {
      throw new RecordLoadError(
        'not_a_file',
        `${printable(path)} is a pipe with nothing written to it (no writer, or one that wrote nothing); pass a match record file or a directory of them`,
      );
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (err) {
    if (err instanceof RecordLoadError) throw err;
    throw unreadable(path, err);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** How long a read of a pipe waits when its writer has nothing yet. */
const PIPE_WAIT_MS = 5;

/** Read past the limit (a pipe, a stream, a file that grew): how far is not known. */
function overLimit(from: string): RecordLoadError {
  return new RecordLoadError(
    'too_large',
    `${printable(from)} is over ${MiB(RECORD_LIMITS.fileBytes)}, more than a match record can be, so this is not one`,
  );
}

function tooLarge(path: string, size: number): RecordLoadError {
  return new RecordLoadError(
    'too_large',
    `${printable(path)} is ${MiB(size)}; match records are at most ${MiB(RECORD_LIMITS.fileBytes)}, so this is not one`,
  );
}

/**
 * Walks parsed JSON without recursion and refuses nesting deeper than
 * RECORD_LIMITS.depth or strings longer than RECORD_LIMITS.stringChars, so
 * nothing after it (schema, verifier, renderer) meets a value that could
 * overflow the stack or fill the screen with one name.
 */
/** A location inside the record for a message: printable, and short even when a key is long. */
function place(where: string): string {
  const text = printable(where || '(top level)');
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function checkBounds(json: unknown, origin: string): void {
  // Most files are within bounds: a plain walk says so without building paths;
  // only a file that is not walks again to say where.
  if (!withinBounds(json, 0)) describeBounds(json, origin);
}

function withinBounds(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.length <= RECORD_LIMITS.stringChars;
  if (typeof value !== 'object' || value === null) return true;
  if (depth >= RECORD_LIMITS.depth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!withinBounds(value[i], depth + 1)) return false;
    return true;
  }
  for (const k in value) {
    if (k.length > RECORD_LIMITS.stringChars || !withinBounds((value as Record<string, unknown>)[k], depth + 1))
      return false;
  }
  return true;
}

/** Throws the RecordLoadError that names where json breaks the limits. */
function describeBounds(json: unknown, origin: string): void {
  const stack: Array<{ value: unknown; depth: number; where: string }> = [{ value: json, depth: 0, where: '' }];
  // The path as zod names it (replay.5.data), to four steps: enough to find the spot.
  const name = (where: string, key: string, depth: number) =>
    where === '' ? key : depth <= 4 ? `${where}.${key}` : where;
  while (stack.length) {
    const { value, depth, where } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length > RECORD_LIMITS.stringChars) {
        throw new RecordLoadError(
          'too_long',
          `${origin} is not a match record: ${place(where)} holds a string of ${value.length} characters; the limit is ${RECORD_LIMITS.stringChars}`,
        );
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= RECORD_LIMITS.depth) {
      throw new RecordLoadError(
        'too_deep',
        `${origin} is not a match record: ${place(where)} is nested more than ${RECORD_LIMITS.depth} levels deep`,
      );
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        stack.push({ value: value[i], depth: depth + 1, where: name(where, String(i), depth + 1) });
    } else {
      for (const [k, v] of Object.entries(value)) {
        if (k.length > RECORD_LIMITS.stringChars) {
          throw new RecordLoadError(
            'too_long',
            `${origin} is not a match record: ${place(where)} has a key of ${k.length} characters; the limit is ${RECORD_LIMITS.stringChars}`,
          );
        }
        stack.push({ value: v, depth: depth + 1, where: name(where, k, depth + 1) });
      }
    }
  }
}

/** Parses text as a match record, with errors that say what is wrong and where. */
export async function parseRecord(text: string, from: string): Promise<MatchRecord> {
  const origin = printable(from);
  const json = parseJson(text, origin);
  await checkRecordSchema(json, origin);
  return json as MatchRecord;
}

function parseJson(text: string, origin: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new RecordLoadError(
      'not_json',
      `${origin} is not JSON (${printable((err as Error).message).slice(0, 200)}); pass a match record written by \`arena play --out DIR\``,
    );
  }
  checkBounds(json, origin);
  return json;
}

/** The whole record against MatchRecordSchema (events included); throws RecordLoadError naming the first issue. */
async function checkRecordSchema(json: unknown, origin: string): Promise<void> {
  // Loaded here: building every event schema is most of what reading a record costs at start-up.
  const { MatchRecordSchema } = await import('../protocol/match');
  const parsed = MatchRecordSchema.safeParse(json);
  if (!parsed.success) {
    // In words (record-issue.ts): the reader has the file, not our schema.
    throw new RecordLoadError(
      'not_a_record',
      `${origin} is not a match record: ${describeRecordIssue(parsed.error.issues[0], json)}`,
    );
  }
}

/** Record keys of every replay event (the spec's MatchEvent). */
const EVENT_KEYS = new Set(['seq', 'at', 'kind', 'seat', 'data']);
/**
 * Event kinds whose data the replay takes from the record (a strike's reason, code and message) rather than
 * regenerating.
 */
const ECHOED_KINDS = new Set(['timeout']);

/**
 * For a record that is replayed next (`arena replay`): checks the header with
 * its schema and each event's stamp (seq, at) and keys, and leaves the rest of
 * each event to the engine, whose verifying replay regenerates every event and
 * requires the record's to be equal to it, a stricter check than the schema.
 * Call confirmReplayedRecord after the replay: it finishes the job (the kinds
 * the engine echoes, and the schema's own message for a record that fails).
 * Any failure here is reported as the full schema check reports it.
 */
export async function parseRecordHeader(text: string, from: string): Promise<MatchRecord> {
  const origin = printable(from);
  const json = parseJson(text, origin);
  // jitless: one parse per run, and compiling zod's fast path for it (new Function per object schema) costs more than
  // it saves.
  if (
    !MatchRecordHeaderSchema.safeParse(json, { jitless: true }).success ||
    !eventsStamped((json as { replay: unknown[] }).replay)
  ) {
    await checkRecordSchema(json, origin);
  }
  return json as MatchRecord;
}

function eventsStamped(events: readonly unknown[]): boolean {
  for (const e of events) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
    const ev = e as Record<string, unknown>;
    if (!Number.isInteger(ev.seq) || (ev.seq as number) < 0 || typeof ev.at !== 'string' || typeof ev.kind !== 'string')
      return false;
    for (const k in ev) if (!EVENT_KEYS.has(k)) return false;
  }
  return true;
}

/**
 * After the engine's replay of a record from parseRecordHeader: `replayed`
 * true when it verified (then only the echoed kinds still need their schema),
 * false when it failed (then the schema's complaint, if it has one, is the
 * better message, and is what a full check would have said first).
 */
export async function confirmReplayedRecord(record: MatchRecord, from: string, replayed: boolean): Promise<void> {
  const origin = printable(from);
  if (!replayed) return checkRecordSchema(record, origin);
  const echoed = record.replay.filter((e) => ECHOED_KINDS.has((e as { kind: string }).kind));
  if (echoed.length === 0) return;
  const { MatchEventSchema } = await import('../protocol/match');
  for (const e of echoed) {
    if (!MatchEventSchema.safeParse(e).success) return checkRecordSchema(record, origin);
  }
}

/** stat, with "does not exist" as null and every other failure thrown as a RecordLoadError. */
async function statOf(path: string) {
  try {
    return await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw unreadable(path, err);
  }
}

async function statOrNull(path: string) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

/** Anything at the path that is not a directory: a record file, or something to refuse clearly (a FIFO, a device). */
export const fileSource: RecordSource = {
  async claims(ref) {
    const s = await statOf(ref);
    return s !== null && !s.isDirectory();
  },
  async load(ref, parse = parseRecord) {
    return { record: await parse(await readRecordFile(ref), ref), origin: ref };
  },
};

/** Files in a results directory that are not match records. */
const NOT_RECORDS = new Set(['summary.json']);

export const directorySource: RecordSource = {
  async claims(ref) {
    return (await statOf(ref))?.isDirectory() ?? false;
  },
  async load(ref, parse = parseRecord) {
    let entries: string[];
    try {
      entries = await readdir(ref);
    } catch (err) {
      throw unreadable(ref, err);
    }
    const names = entries.filter((n) => n.endsWith('.json') && !NOT_RECORDS.has(n));
    const dated = await Promise.all(names.map(async (n) => ({ n, s: await statOrNull(join(ref, n)) })));
    const files = dated
      .filter((d) => d.s?.isFile())
      .sort((a, b) => b.s!.mtimeMs - a.s!.mtimeMs || b.n.localeCompare(a.n));
    if (!files.length)
      throw new RecordLoadError(
        'empty_dir',
        `${printable(ref)} holds no match records (*.json); run \`arena play --out ${printable(ref)}\` first`,
      );
    const path = join(ref, files[0].n);
    return { record: await parse(await readRecordFile(path), path), origin: path };
  },
};

const LOOKS_LIKE_PATH = /[\\/]|\.json$/i;

/** What a service match id looks like (src/service/store/ids.ts): no path separators, no dots. */
const MATCH_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A match id with no server to ask: says how to name one instead of guessing. */
export const serverSource: RecordSource = {
  async claims(ref) {
    return !LOOKS_LIKE_PATH.test(ref);
  },
  async load(ref) {
    throw needsServer(ref);
  },
};

function needsServer(ref: string): RecordLoadError {
  return new RecordLoadError(
    'needs_server',
    `no file or directory named "${printable(ref)}", and no server to fetch match "${printable(ref)}" from: pass --url, set ARENA_URL, or run \`arena login\`. Or pass a match file or a directory written by \`arena play --out DIR\``,
  );
}

/**
 * A match id fetched from a server: GET {baseUrl}/matches/{id}, read up to
 * the same size limit as a file and parsed the same way. `baseUrl` is asked
 * for only when a reference gets here (not a file or directory), so a missing
 * server setting matters only then (null: none configured).
 */
export function remoteSource(
  baseUrl: () => string | null | Promise<string | null>,
  fetchImpl: typeof fetch = fetch,
): RecordSource {
  return {
    async claims(ref) {
      return MATCH_ID.test(ref);
    },
    async load(ref, parse = parseRecord) {
      const base = await baseUrl();
      if (base === null) throw needsServer(ref);
      const url = `${new URL(base).origin}${new URL(base).pathname.replace(/\/+$/, '')}/matches/${encodeURIComponent(ref)}`;
      const origin = new URL(base).origin;
      let res: Response;
      try {
        res = await fetchImpl(url, { headers: { accept: 'application/json' } });
      } catch (err) {
        const e = err as { cause?: { code?: string }; message?: string };
        throw new RecordLoadError(
          'server_error',
          `no file or directory named "${printable(ref)}", and ${origin} could not be reached to fetch it (${e.cause?.code ?? e.message})`,
        );
      }
      if (res.status === 404) {
        await res.body?.cancel();
        throw new RecordLoadError(
          'not_found',
          `no file or directory named "${printable(ref)}", and ${origin} has no match with that id`,
        );
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new RecordLoadError(
          'server_error',
          `${origin} answered HTTP ${res.status} for match "${printable(ref)}"`,
        );
      }
      const record = await parse(await readResponse(res, url), url);
      if (record.status === 'running') {
        throw new RecordLoadError(
          'still_running',
          `match ${printable(ref)} is still running: its seed and replay become public when it ends. Follow it live with \`arena watch ${printable(ref)}\``,
        );
      }
      return { record, origin: url };
    },
  };
}

/** A response body as text, refused past RECORD_LIMITS.fileBytes (a server can send anything). */
async function readResponse(res: Response, url: string): Promise<string> {
  const limit = RECORD_LIMITS.fileBytes;
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel();
    throw tooLarge(url, declared);
  }
  return res.body ? readStreamLimited(res.body as unknown as AsyncIterable<Uint8Array>, url) : '';
}

/** A stream's text, refused once it passes RECORD_LIMITS.fileBytes. */
async function readStreamLimited(stream: AsyncIterable<Uint8Array>, from: string): Promise<string> {
  return (await readLimited(stream, RECORD_LIMITS.fileBytes, () => overLimit(from))).toString('utf8');
}

/** `-`: the record piped into stdin (`gunzip -c m.json.gz | arena replay -`). */
export function stdinSource(stdin: AsyncIterable<Uint8Array> & { isTTY?: boolean }): RecordSource {
  return {
    async claims(ref) {
      return ref === '-';
    },
    async load(_ref, parse = parseRecord) {
      if (stdin.isTTY === true) {
        throw new RecordLoadError(
          'not_a_file',
          '"-" reads the record from stdin, but stdin is a terminal: pipe one in (arena replay - < m.json) or pass its file',
        );
      }
      let text: string;
      try {
        text = await readStreamLimited(stdin, 'stdin');
      } catch (err) {
        if (err instanceof RecordLoadError) throw err;
        throw unreadable('stdin', err);
      }
      if (text === '')
        throw new RecordLoadError('not_json', 'stdin is empty: pipe a match record into it (arena replay - < m.json)');
      return { record: await parse(text, 'stdin'), origin: 'stdin' };
    },
  };
}

export const DEFAULT_SOURCES: readonly RecordSource[] = [fileSource, directorySource, serverSource];

export async function loadRecord(
  ref: string,
  sources: readonly RecordSource[] = DEFAULT_SOURCES,
  parse: RecordParser = parseRecord,
): Promise<LoadedRecord> {
  for (const source of sources) {
    if (await source.claims(ref)) return source.load(ref, parse);
  }
  throw new RecordLoadError('not_found', `${printable(ref)}: no such file or directory`);
}
