// The live hub of a Postgres store: every process on the database serves the
// stream of every running match, wherever it is played.
//  - The process playing a match publishes as with the in-memory hub (its own
//    viewers are served from memory, unchanged) and writes each flush's
//    public events and public view to the live tables, with a NOTIFY, in one
//    statement (store/pg/live.ts). Writes of one match go one at a time, in
//    order; flushes made while one is in flight go together in the next.
//  - Every process LISTENs on one connection of its own (not one per viewer).
//    A viewer of a match played elsewhere subscribes to a mirror of it
//    (mirror.ts), loaded from the tables; each notification for a mirrored
//    match reads what is new. A lost LISTEN connection reconnects, and every
//    mirror then reads what it missed; a poll every few seconds does the same,
//    so a lost notification delays a viewer but never loses an event.
// Nothing hidden reaches the tables: the events' public forms (hub.ts
// publicMatchEvent), the engine's publicView, and the header (seats, bot ids
// and names). Bot URLs and seeds are never in a channel.
import pg from 'pg';
import type { PublicView } from '../../../engine/index';
import type { MatchEvent, MatchPlayer, PublicMatchEvent } from '../../protocol/index';
import { Db } from '../store/pg/db';
import {
  endLiveMatch,
  LIVE_CHANNEL,
  openLiveMatch,
  readLiveMatch,
  sweepLiveMatches,
  writeLiveEvents,
  type LiveRow,
} from '../store/pg/live';
import { LiveChannel, LiveHub, type LiveMatchHeader } from './hub';
import { MirrorChannel } from './mirror';

type Final = { status: 'completed' | 'aborted'; players: MatchPlayer[]; endedAt: string };
type Log = (fields: Record<string, unknown>) => void;

export interface PgLiveHubOptions {
  log?: Log;
  /**
   * How long an ended match's rows stay (ms): a viewer a little behind still reads its last events from them (default
   * 60 s).
   */
  keepEndedMs?: number;
  /**
   * A running match no write has touched for this long is a dead player's: its rows go (default 1 hour, or twice the
   * match timeout).
   */
  staleMs?: number;
  /** How often mirrors read what a lost notification would have told them (default 5 s). */
  pollMs?: number;
  /** A mirror nobody watches is dropped after this long (default 30 s). */
  idleMirrorMs?: number;
  /** Whether a match is over, from the store: ends a mirror whose player died without writing the end. */
  finalOf?: (matchId: string) => Promise<Final | null>;
  /**
   * At most one write of a match's events per this many ms (default DEFAULT_WRITE_INTERVAL_MS);
   * the flushes in between go in the next write. The end is written at once.
   */
  writeIntervalMs?: number;
}

/**
 * Bots that answer at once play a decision every few hundred microseconds: a
 * write per flush would cost the database more CPU than the workers spend
 * playing (npm run bench -- scale). A tenth of a second is below what a
 * spectator notices, and every paced turn (--min-turn-ms) still gets its own.
 */
export const DEFAULT_WRITE_INTERVAL_MS = 100;

/** A running match no write has touched for this long is asked about in the store. */
const SILENT_MATCH_MS = 30_000;
/** How long a viewer of a match the store has as running waits for its first live row. */
const OPEN_WAIT_MS = 2_000;
const RETRY_MIN_MS = 100;
/**
 * Connections of the hub's pool: one write in flight per match, so a few carry many matches (writes coalesce behind
 * them).
 */
const LIVE_POOL_SIZE = 4;
const RETRY_MAX_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** A channel of a match played here: also writes to the live tables. */
class PublishedChannel extends LiveChannel {
  /** The newest seq in the tables (-1: none). */
  written = -1;
  opened = false;
  /** The newest flush's view function (memoized: local viewers may have taken it already). */
  viewOf: (() => PublicView) | null = null;
  final: string | null = null;
  endWritten = false;
  pump: Promise<void> | null = null;

  constructor(
    header: LiveMatchHeader,
    private readonly onWork: (ch: PublishedChannel) => void,
  ) {
    super(header);
  }

  override publish(events: readonly MatchEvent[], view: () => PublicView): void {
    if (this.ended) return;
    const before = this.lastSeq;
    let v: PublicView | null = null;
    const get = () => (v ??= view());
    super.publish(events, get);
    if (this.lastSeq === before) return;
    this.viewOf = get;
    this.onWork(this);
  }
}

export class PgLiveHub extends LiveHub {
  private readonly mirrors = new Map<
    string,
    { ready: Promise<MirrorChannel | undefined>; mirror: MirrorChannel | null }
  >();
  private readonly pumping = new Set<PublishedChannel>();
  private readonly log: Log;
  private readonly keepEndedS: number;
  private readonly staleS: number;
  private listener: pg.Client | null = null;
  private listenFailures = 0;
  private stopped = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly refreshing = new Map<MirrorChannel, { again: boolean; done: Promise<void> }>();

  private constructor(
    private readonly db: Db,
    private readonly opts: PgLiveHubOptions,
    private readonly url: string | undefined,
  ) {
    super();
    this.log = opts.log ?? (() => {});
    this.keepEndedS = (opts.keepEndedMs ?? 60_000) / 1000;
    this.staleS = (opts.staleMs ?? 3_600_000) / 1000;
  }

  /**
   * Starts listening (a failed first connection retries in the background) and the poll. The hub
   * reads and writes on a small pool of its own, on the store's database, whose commits do not wait
   * for the disk (synchronous_commit off): the rows are scratch (a crash of PostgreSQL may lose the
   * last few, never the match record, and viewers then resume from it), and a flush then costs a
   * round trip, not a WAL flush.
   */
  static async start(store: Db, opts: PgLiveHubOptions = {}): Promise<PgLiveHub> {
    const connectionString = (store.pool as unknown as { options: { connectionString?: string } }).options
      .connectionString;
    const pool = new pg.Pool({
      connectionString,
      max: LIVE_POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      options: '-c synchronous_commit=off',
    });
    pool.on('error', () => {});
    const db = new Db(pool, connectionString ?? '');
    const hub = new PgLiveHub(db, opts, connectionString);
    await hub.listen();
    const poll = setInterval(() => hub.poll(), opts.pollMs ?? 5_000);
    poll.unref();
    const sweep = setInterval(
      () => void sweepLiveMatches(db, hub.keepEndedS, hub.staleS).catch(() => {}),
      Math.max(10_000, opts.keepEndedMs ?? 60_000),
    );
    sweep.unref();
    hub.timers.push(poll, sweep);
    return hub;
  }

  /** True while the LISTEN connection is up (tests, /health). */
  get listening(): boolean {
    return this.listener !== null;
  }

  /** The LISTEN connection's backend pid (tests terminate it), or null. */
  get listenerPid(): number | null {
    return (this.listener as unknown as { processID?: number } | null)?.processID ?? null;
  }

  protected override newChannel(header: LiveMatchHeader): LiveChannel {
    const ch = new PublishedChannel(header, (c) => this.kick(c));
    this.kick(ch);
    return ch;
  }

  override close(matchId: string, final: Final): void {
    const ch = this.channels.get(matchId);
    super.close(matchId, final);
    if (ch instanceof PublishedChannel && ch.final === null) {
      ch.final = JSON.stringify({ status: final.status, players: final.players, endedAt: final.endedAt });
      this.kick(ch);
    }
  }

  override viewerCount(): number {
    let n = super.viewerCount();
    for (const { mirror } of this.mirrors.values()) n += mirror?.viewerCount ?? 0;
    return n;
  }

  override async find(matchId: string, storeSaysRunning = false): Promise<LiveChannel | undefined> {
    const local = this.channels.get(matchId);
    if (local) return local;
    let entry = this.mirrors.get(matchId);
    if (!entry) {
      const e = { ready: this.load(matchId, storeSaysRunning), mirror: null as MirrorChannel | null };
      this.mirrors.set(matchId, (entry = e));
      // Not live (or the database did not answer: the caller hears of it): the next viewer asks again.
      const forget = () => {
        if (this.mirrors.get(matchId) === e) this.mirrors.delete(matchId);
      };
      e.ready.then((m) => void (m || forget()), forget);
    }
    const mirror = await entry.ready;
    return mirror && !mirror.isEnded ? mirror : undefined;
  }

  /** Resolves once every write begun so far is in the database (benchmarks, tests, stop). */
  async flushed(): Promise<void> {
    while (this.pumping.size > 0) await Promise.all([...this.pumping].map((c) => c.pump));
  }

  /** Finishes the writes under way (for up to `waitMs`), then stops listening. */
  override async stop(waitMs = 5_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.flushed(), new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    // Matches played elsewhere go on: their spectators here resume on another server.
    for (const { mirror } of this.mirrors.values()) mirror?.dropViewers();
    this.mirrors.clear();
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => {});
    await this.db.pool.end().catch(() => {});
  }

  // --- the player's side: writes, one at a time per match, retried while the database is away

  private kick(ch: PublishedChannel): void {
    if (ch.pump || this.stopped) return;
    this.pumping.add(ch);
    ch.pump = this.write(ch).finally(() => {
      ch.pump = null;
      this.pumping.delete(ch);
      // A publish or close between the write's last look and now found the pump still set.
      if (!ch.opened || ch.written < ch.lastSeq || (ch.final !== null && !ch.endWritten)) this.kick(ch);
    });
  }

  private async write(ch: PublishedChannel): Promise<void> {
    let failures = 0;
    for (;;) {
      if (this.stopped) return;
      try {
        if (!ch.opened) {
          await openLiveMatch(this.db, ch.header.id, JSON.stringify(ch.header));
          ch.opened = true;
        } else if (ch.written < ch.lastSeq) {
          const upTo = ch.lastSeq;
          const events = ch.eventsFrom(ch.written + 1).map((e) => JSON.stringify(e));
          // One view per write, not per flush (publicView costs more than the rest of a flush: npm run
          // bench -- serve-live): taken as the write starts, after the newest flush. Between flushes the
          // game is where its events say, the assumption LiveChannel.subscribe makes too.
          const view = ch.viewOf ? JSON.stringify(ch.viewOf()) : null;
          const prev = await writeLiveEvents(
            this.db,
            ch.header.id,
            ch.written + 1,
            events,
            view,
            view === null ? -1 : upTo,
          );
          if (prev === null || prev < ch.written) {
            // Rows written before are gone (PostgreSQL crashed before they reached its disk, or the
            // row was deleted): write them again from what the tables still have; this process has all.
            if (prev === null) ch.opened = false;
            ch.written = prev ?? -1;
            this.log({
              event: 'live.rewrite',
              matchId: ch.header.id,
              from: ch.written + 1,
              note: 'the database lost live rows; writing them again',
            });
          } else {
            ch.written = upTo;
            // Flushes meanwhile wait for the next write; a match that ended is written out at once.
            if (ch.final === null) await sleep(this.opts.writeIntervalMs ?? DEFAULT_WRITE_INTERVAL_MS);
          }
        } else if (ch.final !== null && !ch.endWritten) {
          await endLiveMatch(this.db, ch.header.id, ch.final, this.keepEndedS, this.staleS);
          ch.endWritten = true;
        } else {
          return;
        }
        failures = 0;
      } catch (err) {
        // Viewers elsewhere wait; they lose nothing: the next write carries every event since the last one written.
        if (failures++ === 0)
          this.log({
            event: 'live.write_failed',
            matchId: ch.header.id,
            error: (err as Error).message,
            note: 'retrying; viewers on other processes resume when the database answers',
          });
        await sleep(Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** failures));
      }
    }
  }

  // --- the viewers' side: mirrors of matches played elsewhere

  private async load(matchId: string, storeSaysRunning: boolean): Promise<MirrorChannel | undefined> {
    // The player opens the channel before it stores the match, but the two writes race: a viewer
    // who found the match running in the store waits a moment for the live row.
    const until = Date.now() + (storeSaysRunning ? OPEN_WAIT_MS : 0);
    let row = await readLiveMatch(this.db, matchId, -1);
    while (!row && Date.now() < until) {
      await sleep(50);
      row = await readLiveMatch(this.db, matchId, -1);
    }
    if (!row || row.final !== null) return undefined;
    // Silent for long: its player may have died and the match been recorded aborted since (then its record answers).
    if (row.idleS * 1000 >= SILENT_MATCH_MS && (await this.opts.finalOf?.(matchId))) return undefined;
    const mirror = new MirrorChannel(JSON.parse(row.header) as LiveMatchHeader, () => {});
    this.addRow(mirror, row);
    const entry = this.mirrors.get(matchId);
    if (entry) entry.mirror = mirror;
    // Whatever committed between that read and now: its notification found no mirror to wake.
    void this.refresh(mirror);
    return mirror;
  }

  /** Reads what is new for the mirror; one read at a time per mirror, and one more when asked meanwhile. */
  private refresh(mirror: MirrorChannel): Promise<void> {
    const running = this.refreshing.get(mirror);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          await this.readInto(mirror);
        } while (state.again && !mirror.isEnded && !this.stopped);
      } catch (err) {
        // The poll or the listener's reconnect reads again.
        this.log({ event: 'live.read_failed', matchId: mirror.header.id, error: (err as Error).message });
      } finally {
        this.refreshing.delete(mirror);
      }
    })();
    this.refreshing.set(mirror, state);
    return state.done;
  }

  private async readInto(mirror: MirrorChannel): Promise<void> {
    const id = mirror.header.id;
    const row = await readLiveMatch(this.db, id, mirror.lastSeq);
    if (row) {
      this.addRow(mirror, row);
      if (row.final !== null) return this.endMirror(mirror, JSON.parse(row.final) as Final);
      if (row.idleS * 1000 < SILENT_MATCH_MS) return;
    }
    // Gone (swept) or silent for long: the player may have died. The store says whether the match is over.
    const final = await this.opts.finalOf?.(id);
    if (final) this.endMirror(mirror, final);
    else if (!row) this.endMirror(mirror, null);
  }

  /**
   * The row's events, and its view when it follows the last of them (at the end, events past the newest view come
   * without one).
   */
  private addRow(mirror: MirrorChannel, row: LiveRow): void {
    if (row.events.length === 0) return;
    const events = row.events.map((e) => JSON.parse(e) as PublicMatchEvent);
    mirror.add(
      events,
      row.view !== null && row.viewSeq === events[events.length - 1].seq ? (JSON.parse(row.view) as PublicView) : null,
    );
  }

  private endMirror(mirror: MirrorChannel, final: Final | null): void {
    const entry = this.mirrors.get(mirror.header.id);
    if (entry?.mirror === mirror) this.mirrors.delete(mirror.header.id);
    // Without a known end its viewers are closed without one, and reconnect to what the store has.
    if (final) mirror.end(final);
    else mirror.end({ status: 'aborted', players: mirror.header.players, endedAt: new Date().toISOString() });
  }

  private onNotification(payload: string | undefined): void {
    if (!payload) return;
    const space = payload.lastIndexOf(' ');
    const id = payload.slice(0, space);
    const mirror = this.mirrors.get(id)?.mirror;
    if (!mirror) return;
    const seq = payload.slice(space + 1);
    if (seq !== 'end' && Number(seq) <= mirror.lastSeq) return; // read already
    void this.refresh(mirror);
  }

  private poll(): void {
    const now = Date.now();
    for (const [id, { mirror }] of this.mirrors) {
      if (!mirror) continue;
      if (
        mirror.viewerCount === 0 &&
        mirror.idleSince !== null &&
        now - mirror.idleSince > (this.opts.idleMirrorMs ?? 30_000)
      ) {
        this.mirrors.delete(id);
        continue;
      }
      void this.refresh(mirror);
    }
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: 5_000 });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = null;
      void client.end().catch(() => {});
      if (this.stopped) return;
      if (this.listenFailures++ === 0)
        this.log({
          event: 'live.listen_lost',
          error: err?.message ?? 'connection ended',
          note: 'reconnecting; viewers of matches played elsewhere catch up from the database',
        });
      void sleep(Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.listenFailures)).then(() => this.listen());
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (n) => this.onNotification(n.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    if (this.listenFailures > 0) this.log({ event: 'live.listening', note: 'reconnected' });
    this.listenFailures = 0;
    // Anything written while nobody listened.
    for (const { mirror } of this.mirrors.values()) if (mirror) void this.refresh(mirror);
  }
}
