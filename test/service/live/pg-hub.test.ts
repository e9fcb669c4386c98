// The Postgres live hub with two hubs on one database, as two processes have
// them: a match published through one is watched through the other (a
// snapshot, then every event exactly once, then the end), a viewer resumes
// on either with Last-Event-ID, a lost LISTEN connection (its backend
// terminated) reconnects and its viewers catch up from the tables, and the
// tables hold nothing a viewer may not see and are emptied after the end.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameEvents, publicView, type Game } from '../../../engine/index';
import { publicMatchEvent } from '../../../src/service/live/hub';
import { PgLiveHub } from '../../../src/service/live/pg-hub';
import { DatabaseUnavailable } from '../../../src/service/store/pg/connect';
import { openPgStore, type PgStore } from '../../../src/service/store/pg-store';
import { rounds, testViewer, type SseMsg } from '../../support/live-game';
import { usePostgres } from '../../support/use-postgres';

const cluster = usePostgres();
let url: string;
let storeA: PgStore;
let storeB: PgStore;

beforeAll(async () => {
  url = await cluster().createDatabase();
  storeA = await openPgStore(url);
  storeB = await openPgStore(url);
});

afterAll(async () => {
  await storeA?.close();
  await storeB?.close();
});

const header = (id: string) => ({
  id,
  game: 'pioneers' as const,
  status: 'running' as const,
  players: [{ seat: 0, botId: 'b_1', botName: 'one', placement: null, ratingDelta: null }],
  startedAt: 't',
});
const final = { status: 'completed' as const, players: [], endedAt: 't2' };

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The public forms and views a viewer may see, by seq: what every message is checked against. */
function expected(game: Game, views: Map<number, unknown>) {
  const events = gameEvents(game).map((e, seq) =>
    JSON.parse(
      JSON.stringify(
        publicMatchEvent({
          seq,
          at: 't',
          kind: e.kind,
          ...(e.seat === undefined ? {} : { seat: e.seat }),
          ...(e.data === undefined ? {} : { data: e.data }),
        } as never),
      ),
    ),
  );
  return (m: SseMsg) => {
    if (m.event === 'event') expect(m.data).toEqual(events[m.id!]);
    if (m.event === 'view') expect(m.data.view).toEqual(views.get(m.data.seq));
  };
}

describe('Postgres live hub: two processes on one database', () => {
  it('a match played faster than its writes: the flushes between two writes go in one (every event once, one view a write), the end at once', async () => {
    const a = await PgLiveHub.start(storeA.db, { writeIntervalMs: 200 });
    const b = await PgLiveHub.start(storeB.db);
    try {
      const ch = a.open(header('m_batch'));
      await a.flushed();
      const viewer = testViewer();
      (await b.find('m_batch', true))!.subscribe(viewer, null);
      let flushes = 0;
      for (const r of rounds('pg-hub-batch')) {
        ch.publish(r.events, () => publicView(r.game));
        flushes++;
        // A round every 2 ms, as bots that answer at once: without the interval each would be its own write.
        await new Promise((res) => setTimeout(res, 2));
        if (ch.lastSeq > 400) break;
      }
      const endedAt = Date.now();
      a.close('m_batch', final);
      await until('the end on B', () => viewer.closed);
      // The end is not held back by the interval (B polls at most a notification away).
      expect(Date.now() - endedAt).toBeLessThan(5_000);
      // Subscribed before the first event: a snapshot at seq -1, then every event from 0.
      expect(viewer.eventIds()).toEqual(Array.from({ length: ch.lastSeq + 1 }, (_, i) => i));
      const views = viewer.messages().filter((m) => m.event === 'view').length;
      expect(views).toBeGreaterThan(0);
      // Over a hundred flushes in under a second or two: a handful of writes, not one each.
      expect(flushes).toBeGreaterThan(100);
      expect(views).toBeLessThan(flushes / 5);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a viewer on the other process gets a snapshot, every later event once, each view, then the end; and resumes on either', async () => {
    const a = await PgLiveHub.start(storeA.db);
    const b = await PgLiveHub.start(storeB.db);
    try {
      const ch = a.open(header('m_pg1'));
      const views = new Map<number, unknown>();
      const first = testViewer();
      let off: (() => void) | null = null;
      let lastSeen = -1;
      const resumed = testViewer();
      const local = testViewer();
      let game: Game | null = null;
      for (const r of rounds('pg-hub-1')) {
        game = r.game;
        ch.publish(r.events, () => publicView(r.game));
        views.set(ch.lastSeq, JSON.parse(JSON.stringify(publicView(r.game))));
        if (ch.lastSeq > 40 && !off && lastSeen === -1) {
          await a.flushed();
          const mirror = await b.find('m_pg1');
          expect(mirror).toBeDefined();
          off = mirror!.subscribe(first, null);
        } else if (off && ch.lastSeq > 300) {
          // Wait for B to have what A wrote, then leave, as a browser tab that loses its connection.
          await a.flushed();
          await until('B to catch up', () => first.eventIds().at(-1) === ch.lastSeq);
          off();
          off = null;
          lastSeen = first.eventIds().at(-1)!;
        } else if (lastSeen !== -1 && ch.lastSeq > 500 && resumed.chunks.length === 0 && local.chunks.length === 0) {
          // One resumes on B (a mirror), the same id on A (the player's channel): the same events follow.
          (await b.find('m_pg1'))!.subscribe(resumed, lastSeen);
          a.get('m_pg1')!.subscribe(local, lastSeen);
          await until('the resume on B', () => resumed.chunks.length > 0);
        }
      }
      a.close('m_pg1', final);
      await a.flushed();
      await until('the end on B', () => resumed.closed);

      const check = expected(game!, views);
      const msgs = first.messages();
      expect(msgs[0].event).toBe('snapshot');
      const snap = msgs[0].data;
      expect(snap.match).toEqual(header('m_pg1'));
      expect(snap.seq).toBeGreaterThan(40);
      expect(snap.view).toEqual(views.get(snap.seq));
      const before = first.eventIds();
      expect(before).toEqual(Array.from({ length: lastSeen - snap.seq }, (_, i) => snap.seq + 1 + i));
      const after = resumed.eventIds();
      expect(resumed.messages().filter((m) => m.event === 'snapshot')).toEqual([]); // a resume: no snapshot
      expect([...before, ...after]).toEqual(Array.from({ length: ch.lastSeq - snap.seq }, (_, i) => snap.seq + 1 + i));
      expect(local.eventIds()).toEqual(after);
      for (const m of [...msgs, ...resumed.messages()]) check(m);
      expect(resumed.messages().at(-1)).toEqual({ event: 'end', data: { id: 'm_pg1', ...final } });
      expect(b.viewerCount()).toBe(0);
      // An ended match is no longer live anywhere: its stream comes from the record.
      expect(await b.find('m_pg1')).toBeUndefined();
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a lost LISTEN connection (its backend terminated) reconnects, and its viewers get what was written meanwhile', async () => {
    const a = await PgLiveHub.start(storeA.db);
    // No poll: only the reconnect's catch-up can deliver what was written while B did not listen.
    const b = await PgLiveHub.start(storeB.db, { pollMs: 3_600_000 });
    try {
      const ch = a.open(header('m_pg2'));
      const gen = rounds('pg-hub-2');
      const step = (n: number) => {
        for (let i = 0; i < n; i++) {
          const r = gen.next();
          if (r.done) return;
          ch.publish(r.value.events, () => publicView(r.value.game));
        }
      };
      step(20);
      await a.flushed();
      const v = testViewer();
      (await b.find('m_pg2'))!.subscribe(v, null);
      const from = v.messages()[0].data.seq as number;
      const pid = b.listenerPid!;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        expect((await admin.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0].ok).toBe(true);
      } finally {
        await admin.end();
      }
      await until('B to notice', () => !b.listening);
      step(200);
      await a.flushed();
      await until('B to listen again', () => b.listening && b.listenerPid !== pid);
      await until('the viewer to catch up', () => v.eventIds().at(-1) === ch.lastSeq);
      step(100);
      await a.flushed();
      await until('later events', () => v.eventIds().at(-1) === ch.lastSeq);
      expect(v.eventIds()).toEqual(Array.from({ length: ch.lastSeq - from }, (_, i) => from + 1 + i));
    } finally {
      a.close('m_pg2', final);
      await a.stop();
      await b.stop();
    }
  });

  it("a server that stops closes its spectators' streams of matches played elsewhere without an end: they resume on another", async () => {
    const a = await PgLiveHub.start(storeA.db);
    const b = await PgLiveHub.start(storeB.db);
    const ch = a.open(header('m_pg5'));
    try {
      for (const r of rounds('pg-hub-5', 30)) ch.publish(r.events, () => publicView(r.game));
      await a.flushed();
      const v = testViewer();
      (await b.find('m_pg5'))!.subscribe(v, null);
      const waiting = testViewer();
      (await b.find('m_pg5'))!.subscribe(waiting, ch.lastSeq + 3);
      await b.stop();
      expect(v.closed && waiting.closed).toBe(true);
      expect(v.messages().map((m) => m.event)).not.toContain('end');
      expect(waiting.chunks).toEqual([]);
    } finally {
      a.close('m_pg5', final);
      await a.stop();
      await b.stop();
    }
  });

  it('a match whose player died: once the store has it over, its spectators get the end, and a new one its record', async () => {
    const a = await PgLiveHub.start(storeA.db);
    const over = new Map<string, { status: 'completed' | 'aborted'; players: never[]; endedAt: string }>();
    const b = await PgLiveHub.start(storeB.db, { pollMs: 50, finalOf: async (id) => over.get(id) ?? null });
    try {
      const ch = a.open(header('m_pg7'));
      for (const r of rounds('pg-hub-7', 20)) ch.publish(r.events, () => publicView(r.game));
      await a.flushed();
      await a.stop(); // dies: no end written
      const v = testViewer();
      (await b.find('m_pg7'))!.subscribe(v, null);
      // Silent for over 30 s, and the matchmaker has recorded it aborted.
      await storeA.db.query(
        "UPDATE arena_live_matches SET updated_at = now() - interval '40 seconds' WHERE match_id = 'm_pg7'",
      );
      const aborted = { status: 'aborted' as const, players: [], endedAt: 't3' };
      over.set('m_pg7', aborted);
      await until('the end', () => v.closed);
      expect(v.messages().at(-1)).toEqual({ event: 'end', data: { id: 'm_pg7', ...aborted } });
      expect(await b.find('m_pg7')).toBeUndefined();
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a viewer of a match the store has as running waits a moment for its first live write (the two writes race); none comes: not live', async () => {
    const a = await PgLiveHub.start(storeA.db);
    const b = await PgLiveHub.start(storeB.db);
    try {
      expect(await b.find('m_pg8')).toBeUndefined();
      const pending = b.find('m_pg8', true);
      await new Promise((r) => setTimeout(r, 300));
      const ch = a.open(header('m_pg8'));
      const mirror = await pending;
      expect(mirror?.header).toEqual(header('m_pg8'));
      a.close(ch.header.id, final);
      const t0 = Date.now();
      expect(await b.find('m_never', true)).toBeUndefined();
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1_900);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('the tables hold only public forms and views, and the rows of ended matches go', async () => {
    const a = await PgLiveHub.start(storeA.db, { keepEndedMs: 0 });
    try {
      const ch = a.open(header('m_pg3'));
      let game: Game | null = null;
      for (const r of rounds('pg-hub-3')) {
        game = r.game;
        ch.publish(r.events, () => publicView(r.game));
      }
      await a.flushed();
      const real = gameEvents(game!);
      // The game held private facts, and the tables have every event, in public form only.
      expect(real.some((e) => e.kind === 'dev' && (e.data as { action: string }).action === 'buy')).toBe(true);
      expect(real.some((e) => e.kind === 'bandit' && 'stole' in (e.data as object))).toBe(true);
      const rows = await storeA.db.query<{ seq: number; event: string }>(
        "SELECT seq, event FROM arena_live_events WHERE match_id = 'm_pg3' ORDER BY seq",
      );
      expect(rows.rows.map((r) => r.seq)).toEqual(real.map((_, i) => i));
      const text =
        rows.rows.map((r) => r.event).join('\n') +
        (
          await storeA.db.query(
            "SELECT header || coalesce(view, '') AS t FROM arena_live_matches WHERE match_id = 'm_pg3'",
          )
        ).rows[0].t;
      for (const key of [
        '"hand"',
        '"devCards"',
        '"devBoughtThisTurn"',
        '"myScore"',
        '"stole"',
        '"code"',
        '"message"',
        '"seed"',
        'ws://',
        'http://',
      ])
        expect(text).not.toContain(key);
      const stored = rows.rows.map((r) => JSON.parse(r.event));
      expect(stored.find((e) => e.kind === 'bandit' && 'victim' in e.data).data).toHaveProperty('stoleCard');
      for (const e of stored)
        if (e.kind === 'dev' && e.data.action === 'buy') expect(e.data).toEqual({ action: 'buy' });

      a.close('m_pg3', final);
      await a.flushed();
      const ended = await storeA.db.query("SELECT final FROM arena_live_matches WHERE match_id = 'm_pg3'");
      expect(JSON.parse(ended.rows[0].final)).toEqual(final);
      // The next end sweeps it (kept 0 s here; a minute by default), its events with it.
      a.close(a.open(header('m_pg4')).header.id, final);
      await a.flushed();
      const left = await storeA.db.query(
        "SELECT (SELECT count(*) FROM arena_live_matches WHERE match_id = 'm_pg3')::int AS m, (SELECT count(*) FROM arena_live_events WHERE match_id = 'm_pg3')::int AS e",
      );
      expect(left.rows[0]).toEqual({ m: 0, e: 0 });
    } finally {
      await a.stop();
    }
  });

  it("with the database away (crashed) a viewer's lookup fails clearly (503 for the route); once it is back, what it lost is written again and streams work", async () => {
    const a = await PgLiveHub.start(storeA.db);
    const b = await PgLiveHub.start(storeB.db);
    try {
      const ch = a.open(header('m_pg6'));
      for (const r of rounds('pg-hub-6', 20)) ch.publish(r.events, () => publicView(r.game));
      await a.flushed();
      cluster().stop('immediate');
      try {
        await expect(b.find('m_pg6')).rejects.toBeInstanceOf(DatabaseUnavailable);
        await expect(b.find('m_pg6')).rejects.toBeInstanceOf(DatabaseUnavailable);
        // The player goes on; its writes wait for the database.
        const base = ch.lastSeq + 1;
        for (const r of rounds('pg-hub-6b', 5))
          ch.publish(
            r.events.map((e) => ({ ...e, seq: e.seq + base })),
            () => publicView(r.game),
          );
        expect(ch.lastSeq).toBeGreaterThan(base);
      } finally {
        cluster().start();
      }
      await a.flushed();
      // The crash (immediate stop) may have lost the newest rows the player wrote before it (their commits
      // do not wait for the disk): its next write finds out and writes them again, so all are there.
      const v = testViewer();
      (await b.find('m_pg6'))!.subscribe(v, null);
      expect(v.messages()[0].data.seq).toBe(ch.lastSeq);
      const rows = await storeA.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM arena_live_events WHERE match_id = 'm_pg6'",
      );
      expect(rows.rows[0].n).toBe(ch.lastSeq + 1);
    } finally {
      a.close('m_pg6', final);
      await a.stop();
      await b.stop();
    }
  });
});
