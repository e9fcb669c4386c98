// The scheduler's side of the job queue (serve --role scheduler): each tick
// first ends the matches nobody will finish (overdueMatches: a dead worker's,
// past its lease), then reads who is busy from the database, and hands each
// new table to the queue with its running record (enqueueMatch).
import type { MatchRecord } from '../../protocol/index';
import type { MatchDispatch } from '../scheduler/scheduler';
import type { MatchHub } from '../scheduler/match-player';
import type { ServiceLog } from '../ops/log-format';
import type { Db } from '../store/pg/db';
import { StoreConflict, type Store } from '../store/types';
import { busyBots, enqueueMatch, overdueMatches } from './match-jobs';

export interface QueueDispatchOptions {
  db: Db;
  store: Store;
  /** Told of the matches the sweep aborts, so viewers hear the end (a shared hub carries it to them). */
  hub?: Pick<MatchHub, 'close'>;
  matchTimeoutMs: number;
  log: ServiceLog;
  /** Called once per match the sweep aborted (metrics). */
  onAbort?: (matchId: string) => void;
}

export class QueueDispatch implements MatchDispatch {
  constructor(private readonly opts: QueueDispatchOptions) {}

  async busy(): Promise<{ botIds: Set<string>; running: number }> {
    await this.sweep();
    return busyBots(this.opts.db);
  }

  async start(running: MatchRecord): Promise<boolean> {
    try {
      await enqueueMatch(this.opts.db, running);
      return true;
    } catch (err) {
      this.opts.log({
        event: 'match.error',
        matchId: running.id,
        error: `cannot queue the match: ${err instanceof Error ? err.message : String(err)}`,
      });
      return false;
    }
  }

  /**
   * Aborts the overdue matches, each exactly once: the store never overwrites a
   * final match (a worker that finished meanwhile wins, and this one is told
   * StoreConflict), so no match is rated and aborted, or aborted twice.
   */
  async sweep(): Promise<string[]> {
    const { store, log } = this.opts;
    const aborted: string[] = [];
    for (const { matchId, reason } of await overdueMatches(this.opts.db, this.opts.matchTimeoutMs)) {
      const m = await store.getMatch(matchId);
      if (m?.status !== 'running') continue;
      const endedAt = new Date().toISOString();
      const players = m.players.map((p) => ({ ...p, placement: null, ratingDelta: null }));
      try {
        await store.putMatch({ ...m, status: 'aborted', endedAt, players });
      } catch (err) {
        if (err instanceof StoreConflict) continue;
        throw err;
      }
      this.opts.hub?.close(matchId, { status: 'aborted', players, endedAt });
      this.opts.onAbort?.(matchId);
      log({ event: 'match.abort', matchId, reason });
      aborted.push(matchId);
    }
    return aborted;
  }
}
