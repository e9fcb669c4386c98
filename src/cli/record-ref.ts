// A match record named as `arena replay` takes it (a file, a directory's
// newest record, - for stdin, or a match id on a server), and its request
// frames rebuilt (src/arena/recorded-requests.ts): shared by `arena position`
// and `arena replay --feed`.
import type { RebuiltRequests } from '../arena/recorded-requests';
import type { MatchRecord } from '../protocol/match';
import { CliError, usageError } from './errors';
import type { CliIO } from './io';
import { configuredServer } from './public-server';

export async function loadRecordRef(
  ref: string,
  io: CliIO,
  url: string | undefined,
): Promise<{ record: MatchRecord; origin: string }> {
  if (!ref.trim())
    throw usageError(
      'REF is empty: give a match.json file, a directory of records, - for stdin, or a match id on the server',
    );
  const { RecordLoadError, fileSource, directorySource, remoteSource, stdinSource, loadRecord } = await import(
    '../arena/load'
  );
  const sources = [
    stdinSource(io.stdin as AsyncIterable<Uint8Array> & { isTTY?: boolean }),
    fileSource,
    directorySource,
    remoteSource(() => configuredServer(io, url)),
  ];
  try {
    return await loadRecord(ref, sources);
  } catch (err) {
    if (err instanceof RecordLoadError) throw new CliError(err.message);
    throw err;
  }
}

export interface TimingFlags {
  deadlineMs?: string;
  timeBank?: string;
}

/**
 * The record's requests, rebuilt with the deadline and time bank the match was run with (flags; arena play's defaults).
 */
export async function rebuildFromRecord(
  record: MatchRecord,
  flags: TimingFlags,
  opts: { seat?: number; keepGames?: boolean },
): Promise<RebuiltRequests> {
  const [{ rebuildRequests, RecordReplayError }, { PLAY_DEFAULTS }] = await Promise.all([
    import('../arena/recorded-requests'),
    import('../arena/play-defaults'),
  ]);
  const deadlineMs = whole('--deadline-ms', flags.deadlineMs, PLAY_DEFAULTS.deadlineMs, 1, 60_000);
  const timeBankMs = whole('--time-bank', flags.timeBank, PLAY_DEFAULTS.timeBankSeconds, 1, 3600) * 1000;
  if (opts.seat !== undefined && opts.seat >= record.seatCount)
    throw usageError(`--seat ${opts.seat}: the match has seats 0-${record.seatCount - 1}`);
  try {
    return rebuildRequests(record, { deadlineMs, timeBankMs, seat: opts.seat, keepGames: opts.keepGames });
  } catch (err) {
    if (err instanceof RecordReplayError) throw new CliError(err.message);
    throw err;
  }
}

export function whole(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw usageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return n;
}
