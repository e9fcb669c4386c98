// `serve --role scheduler`: one table-former per database. Every scheduler
// process tries the matchmaker lock (store/pg/matchmaker.ts) once per tick;
// the one holding it ticks, handing tables to the job queue (QueueDispatch).
// When the leader dies its connection ends, PostgreSQL frees the lock, and a
// waiting scheduler takes it at its next try and ticks at once: within one
// tick. A leader whose lock connection died stops ticking at its next check,
// since another process may hold the lock by then.
import { claimMatchmaking, type MatchmakerLease } from '../store/pg/matchmaker';
import type { Db } from '../store/pg/db';
import { Scheduler, type SchedulerOptions } from '../scheduler/scheduler';
import { QueueDispatch } from './queue-dispatch';
import { migrateQueue } from './queue-schema';

export interface SchedulerRoleOptions extends Omit<SchedulerOptions, 'dispatch'> {
  db: Db;
  /** Told when this process becomes or stops being the database's scheduler. */
  onLeading?: (leading: boolean) => void;
}

export class SchedulerRole {
  private lease: MatchmakerLease | null = null;
  private scheduler: Scheduler | null = null;
  private timer: NodeJS.Timeout | null = null;
  private trying: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly opts: SchedulerRoleOptions) {}

  get leading(): boolean {
    return this.scheduler !== null;
  }

  /** Tries at once, then every tick. */
  start(): Promise<void> {
    this.timer = setInterval(() => void this.attempt(), this.opts.tickMs);
    return this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.trying;
    await this.scheduler?.stop();
    this.scheduler = null;
    await this.lease?.release();
    this.lease = null;
  }

  private attempt(): Promise<void> {
    this.trying ??= this.tryLead()
      .catch((err) =>
        this.opts.log({ event: 'scheduler.error', error: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => {
        this.trying = null;
      });
    return this.trying;
  }

  private async tryLead(): Promise<void> {
    if (this.stopped) return;
    if (this.lease) {
      if (await this.lease.alive()) return;
      // The lock went with its connection: stop before another scheduler seats the same bots.
      await this.scheduler?.stop();
      this.scheduler = null;
      await this.lease.release();
      this.lease = null;
      this.opts.log({
        event: 'scheduler.lost',
        note: 'the matchmaker lock was lost with its connection; trying again every tick',
      });
      this.opts.onLeading?.(false);
    }
    const lease = await claimMatchmaking(this.opts.db);
    if (!lease.held) return;
    if (this.stopped) {
      await lease.release();
      return;
    }
    this.lease = lease;
    await migrateQueue(this.opts.db, this.opts.log);
    const dispatch = new QueueDispatch({
      db: this.opts.db,
      store: this.opts.store,
      hub: this.opts.hub,
      matchTimeoutMs: this.opts.matchTimeoutMs,
      log: this.opts.log,
    });
    const scheduler = new Scheduler({ ...this.opts, dispatch });
    this.scheduler = scheduler;
    this.opts.log({ event: 'scheduler.leading', note: 'this process forms the tables (it holds the matchmaker lock)' });
    this.opts.onLeading?.(true);
    scheduler.start();
    await scheduler.tick();
  }
}
