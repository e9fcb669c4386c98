// `serve --role worker`: takes matches from the job queue (graphile-worker,
// PLAY_MATCH_TASK) and plays them with the match player, as `--role all`
// plays its own. A match is played only after this worker claimed it
// (claimMatch), and kept only while the lease is renewed: a worker that dies
// or loses the database stops renewing, and the scheduler's sweep aborts the
// match once the lease is out. A worker that finds its lease taken stops
// playing (its result could not be written anyway: the match is final).
import { randomBytes } from 'node:crypto';
import { run, type Runner } from 'graphile-worker';
import { seatOrder } from '../../../engine/index';
import type { MatchRecord } from '../../protocol/index';
import { CHALLENGE_FILLER } from '../scheduler/challenges';
import { MatchPlayer, type MatchPlayerOptions } from '../scheduler/match-player';
import type { Db } from '../store/pg/db';
import { StoreConflict, type BotRecord } from '../store/types';
import { claimMatch, PLAY_MATCH_TASK, renewLease } from './match-jobs';
import { migrateQueue } from './queue-schema';
import { queueLogger } from './queue-log';

/** A match stays its worker's this long without a renewal (serve --lease). */
export const DEFAULT_LEASE_MS = 15_000;

export interface MatchWorkerOptions extends MatchPlayerOptions {
  db: Db;
  /** Matches played at once (serve --concurrency). */
  concurrency: number;
  leaseMs?: number;
  /** Names this worker in the database and /metrics (default: host-pid-random). */
  workerId?: string;
  /** Each match taken, with how long it waited in the queue (metrics). */
  onTaken?: (waitedMs: number) => void;
}

interface Playing {
  controller: AbortController;
}

export class MatchWorker {
  readonly workerId: string;
  private readonly player: MatchPlayer;
  private readonly playing = new Map<string, Playing>();
  private runner: Runner | null = null;
  private stopping = false;

  constructor(private readonly opts: MatchWorkerOptions) {
    this.workerId = opts.workerId ?? `w-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.player = new MatchPlayer(opts);
  }

  get leaseMs(): number {
    return this.opts.leaseMs ?? DEFAULT_LEASE_MS;
  }

  get playingCount(): number {
    return this.playing.size;
  }

  async start(): Promise<void> {
    await migrateQueue(this.opts.db, this.opts.log);
    this.runner = await run({
      pgPool: this.opts.db.pool,
      concurrency: this.opts.concurrency,
      noHandleSignals: true,
      // New jobs arrive by LISTEN/NOTIFY; the poll only catches a missed notification.
      pollInterval: 2_000,
      logger: queueLogger(this.opts.log),
      taskList: {
        [PLAY_MATCH_TASK]: async (payload) => {
          const matchId = (payload as { matchId?: unknown } | null)?.matchId;
          if (typeof matchId !== 'string') {
            this.opts.log({ event: 'queue.bad_job', note: 'a play_match job without a match id was dropped' });
            return;
          }
          await this.playQueued(matchId);
        },
      },
    });
  }

  /** Stops taking jobs, aborts the matches being played (recorded as aborted), and waits for them. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const p of this.playing.values()) p.controller.abort();
    await this.runner?.stop();
    this.runner = null;
  }

  private async playQueued(matchId: string): Promise<void> {
    const { db, log } = this.opts;
    if (this.stopping) return;
    const claimed = await claimMatch(db, matchId, this.workerId, this.leaseMs);
    if (!claimed) {
      log({ event: 'queue.skip', matchId, note: 'the match is claimed or ended already: not played again' });
      return;
    }
    this.opts.onTaken?.(claimed.waitedMs);
    const record = claimed.record;
    const bots = await this.entrants(record);
    if (!bots) {
      await this.abortUnplayable(record, 'a seated bot no longer exists');
      return;
    }
    const controller = new AbortController();
    this.playing.set(matchId, { controller });
    const begun = this.player.open(record);
    let renewing = false;
    const lease = setInterval(
      () => {
        if (renewing) return;
        renewing = true;
        renewLease(db, matchId, this.workerId, this.leaseMs)
          .then((ours) => {
            if (ours) return;
            begun.abortReason = 'its lease was lost (the scheduler ended it)';
            controller.abort();
          })
          // The database is away: play on; the result is written when it is back (or refused if the lease ran out
          // meanwhile).
          .catch(() => {})
          .finally(() => {
            renewing = false;
          });
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    try {
      log({
        event: 'match.start',
        matchId,
        worker: this.workerId,
        bots: record.players.map((p) => p.botId),
        waitedMs: Math.round(claimed.waitedMs),
      });
      await this.player.play(begun, Promise.resolve(true), bots, controller.signal).catch((err) => {
        // StoreConflict: the sweep aborted the match first; it stands (aborted once).
        if (!(err instanceof StoreConflict))
          log({ event: 'match.error', matchId, error: err instanceof Error ? err.message : String(err) });
      });
    } finally {
      clearInterval(lease);
      this.playing.delete(matchId);
    }
  }

  /** The seated bots in the order the seed's seating was drawn from (prepare: players[seat] = bots[order[seat]]). */
  private async entrants(record: MatchRecord): Promise<BotRecord[] | null> {
    // prepare seats the registered bots first, then a challenge's built-in fillers: those have no record.
    const n = record.players.filter((p) => p.botId !== CHALLENGE_FILLER.botId).length;
    const order = seatOrder(record.seed ?? '', record.players.length);
    const found = await Promise.all(
      record.players.map((p, seat) => (order[seat] < n ? this.opts.store.getBot(p.botId) : null)),
    );
    const bots = new Array<BotRecord>(n);
    for (const [seat, i] of order.entries()) {
      if (i >= n) continue;
      if (!found[seat]) return null;
      bots[i] = found[seat];
    }
    return bots;
  }

  private async abortUnplayable(record: MatchRecord, reason: string): Promise<void> {
    const endedAt = new Date().toISOString();
    await this.opts.store
      .putMatch({
        ...record,
        status: 'aborted',
        endedAt,
        players: record.players.map((p) => ({ ...p, placement: null, ratingDelta: null })),
      })
      .then(
        () => this.opts.log({ event: 'match.abort', matchId: record.id, reason }),
        (err) => this.opts.log({ event: 'match.error', matchId: record.id, error: String(err) }),
      );
  }
}
