// Finding and reading a match record: a file, the newest record in a
// directory (as `arena play --out DIR` writes them), or, later, a match id
// fetched from a server. Each way is a RecordSource; the first that claims a
// reference loads it.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MatchRecordSchema, type MatchRecord } from '../protocol/match';

export type LoadErrorCode = 'not_found' | 'empty_dir' | 'not_json' | 'not_a_record' | 'needs_server';

export class RecordLoadError extends Error {
  constructor(readonly code: LoadErrorCode, message: string) {
    super(message);
    this.name = 'RecordLoadError';
  }
}

export interface LoadedRecord {
  record: MatchRecord;
  /** Where it came from, for messages: a path or a URL. */
  origin: string;
}

/** One way of turning a reference (path, directory, match id) into a record. */
export interface RecordSource {
  /** True when this source is responsible for the reference; it then loads it or throws. */
  claims(ref: string): Promise<boolean>;
  load(ref: string): Promise<LoadedRecord>;
}

async function statOrNull(path: string) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

/** Parses text as a match record, with errors that say what is wrong and where. */
export function parseRecord(text: string, origin: string): MatchRecord {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new RecordLoadError('not_json', `${origin} is not JSON (${(err as Error).message}); pass a match record written by \`arena play --out DIR\``);
  }
  const parsed = MatchRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
    // Keys and values quoted from the file may hold control characters; never print them raw.
    const printable = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
    throw new RecordLoadError('not_a_record', `${origin} is not a match record: ${printable(where)}: ${printable(issue.message)}`);
  }
  return parsed.data;
}

export const fileSource: RecordSource = {
  async claims(ref) {
    return (await statOrNull(ref))?.isFile() ?? false;
  },
  async load(ref) {
    return { record: parseRecord(await readFile(ref, 'utf8'), ref), origin: ref };
  },
};

/** Files in a results directory that are not match records. */
const NOT_RECORDS = new Set(['summary.json']);

export const directorySource: RecordSource = {
  async claims(ref) {
    return (await statOrNull(ref))?.isDirectory() ?? false;
  },
  async load(ref) {
    const names = (await readdir(ref)).filter((n) => n.endsWith('.json') && !NOT_RECORDS.has(n));
    const dated = await Promise.all(names.map(async (n) => ({ n, s: await statOrNull(join(ref, n)) })));
    const files = dated.filter((d) => d.s?.isFile()).sort((a, b) => b.s!.mtimeMs - a.s!.mtimeMs || b.n.localeCompare(a.n));
    if (!files.length) throw new RecordLoadError('empty_dir', `${ref} holds no match records (*.json); run \`arena play --out ${ref}\` first`);
    const path = join(ref, files[0].n);
    return { record: parseRecord(await readFile(path, 'utf8'), path), origin: path };
  },
};

const LOOKS_LIKE_PATH = /[\\/]|\.json$/i;

/** Match ids need the service; until it exists this says so instead of guessing. */
export const serverSource: RecordSource = {
  async claims(ref) {
    return !LOOKS_LIKE_PATH.test(ref);
  },
  async load(ref) {
    throw new RecordLoadError('needs_server', `no file or directory named "${ref}"; fetching match "${ref}" by id from a server comes with the service. Pass a match file or a directory written by \`arena play --out DIR\``);
  },
};

export const DEFAULT_SOURCES: readonly RecordSource[] = [fileSource, directorySource, serverSource];

export async function loadRecord(ref: string, sources: readonly RecordSource[] = DEFAULT_SOURCES): Promise<LoadedRecord> {
  for (const source of sources) {
    if (await source.claims(ref)) return source.load(ref);
  }
  throw new RecordLoadError('not_found', `${ref}: no such file or directory`);
}
