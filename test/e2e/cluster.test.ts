// `arena serve` as a cluster on one PostgreSQL database, every process the
// built CLI as an operator runs it: 2 api + 1 scheduler + 2 worker processes
// (and a standby scheduler), real WebSocket bots on 127.0.0.1. Matches are
// queued by the scheduler and played by the workers; each completes and is
// rated once. kill -9 of a worker mid-match: its match is aborted once (by the
// scheduler's lease sweep), never played again, its bots seated again. kill -9
// of the scheduler: the standby takes over within a tick. kill -9 of an api:
// the other serves everything. A spectator on api #1 follows a match a worker
// plays and resumes on api #2 with Last-Event-ID, with no gap and no repeat.
// At the end nothing is left running, and every
// bot's games played equal its completed rated matches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, publicKeyRaw, signRequest } from '../../src/keys/index';
import { openPgStore, type PgStore } from '../../src/service/store/pg-store';
import { answer, startTestBot, type TestBot } from '../support/test-bot';
import { legalPlayer } from '../support/policies';
import { usePostgres } from '../support/use-postgres';
import { existsSync } from 'node:fs';
import { runCli } from '../support/run-cli';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process';
import { SseParser, type SseEvent } from '../../src/client/sse';

const cluster = usePostgres();
let dir: string;
const bots: TestBot[] = [];
const procs: ServeProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-cluster-'));
});
afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(bots.map((b) => b.close()));
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ HOME: join(dir, 'home'), ARENA_CONFIG_DIR: join(dir, 'config') });

/** Plays legally, each answer after a short pause, so a match lasts long enough to be killed in. */
function steadyBot() {
  const play = legalPlayer();
  return (ctx: Parameters<typeof answer>[0]) =>
    void setTimeout(() => answer(ctx, play(ctx.request.view, ctx.request.kind, ctx.request.matchId)), 2);
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Reads a match's live stream from `base` until `enough` says so, then hangs up; `lastEventId` resumes. */
async function spectate(
  base: string,
  matchId: string,
  lastEventId: string | null,
  enough: (events: SseEvent[]) => boolean,
): Promise<SseEvent[]> {
  const ac = new AbortController();
  const res = await fetch(`${base}/matches/${matchId}/live`, {
    signal: ac.signal,
    headers: lastEventId ? { 'last-event-id': lastEventId } : {},
  });
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      parser.push(chunk);
      if (enough(events)) break;
    }
  } finally {
    ac.abort();
  }
  return events;
}

describe('serve --role: api, scheduler and workers on one database', () => {
  it('the file store runs only --role all: another role is a usage error (exit 2) and creates nothing', async () => {
    for (const role of ['api', 'scheduler', 'worker']) {
      const data = join(dir, `data-${role}`);
      const r = await runCli(['serve', '--role', role, '--data', data, '--dev', '--port', '0'], {
        env: env(),
        cwd: dir,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`--role ${role} needs a database`));
      expect(existsSync(data)).toBe(false);
    }
    const bad = await runCli(['serve', '--role', 'api', '--concurrency', '3', '--store', cluster().url()], {
      env: env(),
      cwd: dir,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--concurrency and --lease are for --role worker/);
  });

  it('plays and rates each match once; survives kill -9 of a worker, the scheduler and an api', {
    timeout: 60_000,
  }, async () => {
    const url = await cluster().createDatabase();
    const store: PgStore = await openPgStore(url);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const owner = await store.createUser({ email: 'owner@example.com', name: 'owner' });
      const pair = generateKeyPair();
      const key = await store.addKey({
        userId: owner.id,
        name: 'ops',
        publicKey: Buffer.from(publicKeyRaw(pair.publicKey)).toString('base64'),
        scopes: ['account.write'],
      });
      for (let i = 0; i < 8; i++) {
        const bot = await startTestBot({ behaviour: steadyBot() });
        bots.push(bot);
        await store.addBot({ ownerId: owner.id, name: `bot${i}`, game: 'pioneers', url: bot.url });
      }
      const common = [
        '--store',
        url,
        '--dev',
        '--port',
        '0',
        '--same-owner',
        'allow',
        '--match-timeout',
        '60',
        '--log-format',
        'json',
      ];
      const start = async (args: string[]) => {
        const p = await startServe([...common, ...args], env());
        procs.push(p);
        return p;
      };
      const [api1, api2] = await Promise.all([start(['--role', 'api']), start(['--role', 'api'])]);
      const health = await (await fetch(`${api1.url}/health`)).json();
      expect(health).toEqual({ status: 'ok', role: 'api', db: 'ok' });
      // Paced turns: a match lasts a few seconds, long enough to kill its worker in.
      const workerArgs = ['--role', 'worker', '--concurrency', '2', '--lease', '2', '--min-turn-ms', '15'];
      const [w1, w2] = await Promise.all([start(workerArgs), start(workerArgs)]);
      const workerId = async (p: ServeProcess) => (await p.waitFor(/worker (w-\S+): plays/))[1];
      const ids = new Map([
        [await workerId(w1), w1],
        [await workerId(w2), w2],
      ]);
      const sched1 = await start(['--role', 'scheduler', '--tick', '1']);
      await sched1.waitFor(/holds the matchmaker lock/);
      expect(await (await fetch(`${sched1.url}/health`)).json()).toEqual({ status: 'ok', role: 'scheduler', db: 'ok' });
      const sched2 = await start(['--role', 'scheduler', '--tick', '1']);
      await sched2.waitFor(/another scheduler holds the matchmaker lock/);

      // Both tables run, one on each worker or both on one; the bots are seated once each.
      const running = await until('a match played by a worker', async () => {
        const r = await db.query(
          `SELECT j.match_id, j.worker_id FROM arena_match_jobs j JOIN arena_matches m ON m.id = j.match_id WHERE m.status = 'running' AND j.worker_id IS NOT NULL`,
        );
        return r.rows.length > 0 ? (r.rows as Array<{ match_id: string; worker_id: string }>) : null;
      });
      // A spectator on api #1 follows a match a worker plays, hangs up, and resumes on api #2 with Last-Event-ID: no
      // gap, no repeat.
      const watched = running[running.length - 1].match_id;
      const seqs = (events: SseEvent[]) =>
        events.filter((e) => e.type === 'event').map((e) => (JSON.parse(e.data) as { seq: number }).seq);
      const first = await spectate(api1.url, watched, null, (events) => seqs(events).length >= 5);
      const resumeFrom = first[first.length - 1].lastEventId;
      expect(resumeFrom).toMatch(/^\d+$/);
      const second = await spectate(
        api2.url,
        watched,
        resumeFrom,
        (events) => seqs(events).length >= 5 || events.some((e) => e.type === 'end'),
      );
      expect(
        second.some((e) => e.type === 'snapshot'),
        'a resumed stream gets no new snapshot',
      ).toBe(false);
      const after = seqs(second);
      expect(after.length).toBeGreaterThan(0);
      expect(after[0]).toBe(Number(resumeFrom) + 1);
      after.forEach((seq, i) => expect(seq).toBe(after[0] + i));

      const busy = await db.query(`SELECT bot_ids FROM arena_matches WHERE status = 'running'`);
      const seated = busy.rows.flatMap((r: { bot_ids: string[] }) => r.bot_ids);
      expect(new Set(seated).size).toBe(seated.length);

      // kill -9 the worker of a running match: aborted once by the sweep, within the lease and a tick.
      const victim = running[0];
      const killedAt = Date.now();
      ids.get(victim.worker_id)!.child.kill('SIGKILL');
      await until(
        "the dead worker's match aborted",
        async () => (await store.getMatch(victim.match_id))?.status === 'aborted',
        10_000,
      );
      // The lease (2 s) and a tick (1 s), with room for a loaded machine.
      expect(Date.now() - killedAt).toBeLessThan(2_000 + 1_000 + 5_000);
      const aborted = await store.getMatch(victim.match_id);
      expect(aborted!.players.every((p) => p.ratingDelta === null && p.placement === null)).toBe(true);

      // Matches keep completing on the surviving worker.
      const survivor = [...ids].find(([id]) => id !== victim.worker_id)![1];
      await until(
        'two completed matches',
        async () =>
          Number((await db.query(`SELECT count(*) AS n FROM arena_matches WHERE status = 'completed'`)).rows[0].n) >= 2,
        30_000,
      );

      // kill -9 the scheduler: the standby leads within a tick (and a little).
      const queuedBefore = Number((await db.query('SELECT count(*) AS n FROM arena_match_jobs')).rows[0].n);
      const schedKilledAt = Date.now();
      sched1.child.kill('SIGKILL');
      await sched2.waitFor(/this scheduler holds the matchmaker lock/);
      expect(Date.now() - schedKilledAt).toBeLessThan(1_000 + 2_000);
      await until(
        'a match queued by the new scheduler',
        async () => Number((await db.query('SELECT count(*) AS n FROM arena_match_jobs')).rows[0].n) > queuedBefore,
        15_000,
      );

      // kill -9 an api right after it acknowledged a write: the write stands, and the other api serves everything.
      const body = JSON.stringify({ handle: 'renamed' });
      const ack = await fetch(`${api1.url}/me/handle`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          ...signRequest(pair.privateKey, key.id, { method: 'POST', path: '/me/handle', body }),
        },
      });
      expect(ack.status).toBe(200);
      api1.child.kill('SIGKILL');
      expect((await store.getUser(owner.id))?.name).toBe('renamed');
      const list = (await (await fetch(`${api2.url}/matches?limit=100`)).json()) as { matches: unknown[] };
      expect(list.matches.length).toBeGreaterThan(0);
      expect((await fetch(`${api2.url}/leaderboard`)).status).toBe(200);
      const metrics = await (await fetch(`${api2.url}/metrics`)).text();
      expect(metrics).toMatch(/^arena_queue_depth \d+/m);
      expect(metrics).toMatch(/^arena_worker_matches_last_hour\{worker="w-[^"]+"\} \d+/m);

      // Stop: the scheduler first (nothing new is queued), then the worker once the queue is empty.
      expect((await stopServe(sched2)).code).toBe(0);
      await until(
        'the queue drained',
        async () =>
          Number(
            (
              await db.query(
                `SELECT count(*) AS n FROM arena_match_jobs j JOIN arena_matches m ON m.id = j.match_id WHERE m.status = 'running' AND j.worker_id IS NULL`,
              )
            ).rows[0].n,
          ) === 0,
        15_000,
      );
      expect((await stopServe(survivor)).code).toBe(0);
      expect((await stopServe(api2)).code).toBe(0);

      // Nothing left running; every match played at most once; ratings count each completed match once.
      expect(
        Number((await db.query(`SELECT count(*) AS n FROM arena_matches WHERE status = 'running'`)).rows[0].n),
      ).toBe(0);
      const starts = procs.flatMap((p) =>
        [...p.stderr().matchAll(/"event":"match\.start","matchId":"([^"]+)"/g)].map((m) => m[1]),
      );
      expect(starts.length).toBeGreaterThanOrEqual(3);
      expect(new Set(starts).size).toBe(starts.length);
      const completed = (await db.query(`SELECT bot_ids FROM arena_matches WHERE status = 'completed'`)).rows as Array<{
        bot_ids: string[];
      }>;
      expect(completed.length).toBeGreaterThanOrEqual(2);
      const played = new Map<string, number>();
      for (const m of completed) for (const id of m.bot_ids) played.set(id, (played.get(id) ?? 0) + 1);
      for (const r of await store.listRatings('pioneers')) expect(r.gamesPlayed).toBe(played.get(r.botId) ?? 0);
      expect((await store.listRatings('pioneers')).length).toBe(played.size);
    } finally {
      await db.end();
      await store.close();
    }
  });
});
