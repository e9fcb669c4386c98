// A writer for the crash test: once a line arrives on stdin (so the parent
// can start it ahead of time while it still checks the last round), opens the
// store in argv[2] and writes forever (until killed), printing one JSON line
// per write to stdout: `intent` before it starts, `ack` once its promise
// resolved (durable). The parent kill -9s it and checks every ack is there.
//   echo go | node --import tsx test/service/store/store-crash-child.ts DIR|postgres://...
// The journal is compacted every ARENA_CRASH_COMPACT_BYTES (default 16 KiB, so
// random kills land inside compactions too); with ARENA_CRASH_AT_STEP the
// child prints {t:'step'} and kills itself at that step of its first compaction.
import { randomBytes } from 'node:crypto';
import { openFileStore, type CompactStep } from '../../../src/service/store/file-store';
import { openPgStore } from '../../../src/service/store/pg-store';
import type { RatingRecord } from '../../../src/service/store/types';
import { aborted, completed, runningMatch } from './store-fixtures';

const dir = process.argv[2];
if (!dir) throw new Error('usage: store-crash-child.ts DIR');

// Pipes are synchronous on Linux: a line is with the parent before the next write starts.
const say = (rec: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(rec)}\n`);
const pick = <T>(xs: T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];
const tag = () => randomBytes(6).toString('hex');

await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const crashAt = process.env.ARENA_CRASH_AT_STEP as CompactStep | undefined;
// A database URL: the Postgres store (the crash test's postgres project).
// Named sessions, so the parent can wait for a killed child's last statement to end (see the test).
const store = /^postgres(ql)?:\/\//.test(dir)
  ? await openPgStore(withAppName(dir))
  : await openFileStore(dir, {
      compactBytes: Number(process.env.ARENA_CRASH_COMPACT_BYTES ?? 16 * 1024),
      onCompactStep: (step) => {
        if (step !== crashAt) return;
        say({ t: 'step', step });
        process.kill(process.pid, 'SIGKILL');
      },
    });
say({ t: 'open', pid: process.pid });

function withAppName(url: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', `arena-crash-${process.pid}`);
  return u.href;
}

const users = (await store.listUsers()).map((u) => u.id);
const keys = (await Promise.all(users.map((u) => store.listKeys(u)))).flat().map((k) => k.id);
const bots = (await Promise.all(users.map((u) => store.listBots(u)))).flat().map((b) => b.id);

// What a restarted scheduler does: matches left running are aborted.
for (;;) {
  const page = await store.listMatches({ status: 'running', limit: 100 });
  if (page.matches.length === 0) break;
  for (const m of page.matches) {
    await store.putMatch(aborted(m));
    say({ t: 'ack', op: 'match', id: m.id, status: 'aborted' });
  }
}

async function docWrite(): Promise<void> {
  const r = Math.random();
  if (users.length === 0 || r < 0.2) {
    const email = `${tag()}@Example.com`;
    say({ t: 'intent', op: 'user', email });
    const u = await store.createUser({ email });
    users.push(u.id);
    say({ t: 'ack', op: 'user', id: u.id, email });
  } else if (r < 0.35) {
    const userId = pick(users)!;
    const k = await store.addKey({
      userId,
      name: tag(),
      publicKey: randomBytes(32).toString('base64'),
      scopes: ['bots.read'],
    });
    keys.push(k.id);
    say({ t: 'ack', op: 'key', id: k.id, userId });
  } else if (r < 0.45 && keys.length) {
    const id = pick(keys)!;
    const k = await store.revokeKey(id);
    say({ t: 'ack', op: 'revoke', id, revokedAt: k.revokedAt });
  } else if (r < 0.6 || bots.length < 4) {
    const b = await store.addBot({
      ownerId: pick(users)!,
      name: tag(),
      game: 'pioneers',
      url: `wss://${tag()}.example/`,
    });
    bots.push(b.id);
    say({ t: 'ack', op: 'bot', id: b.id });
  } else if (r < 0.8) {
    const id = pick(bots)!;
    const name = tag();
    say({ t: 'intent', op: 'botName', id, name });
    await store.updateBot(id, { name });
    say({ t: 'ack', op: 'botName', id, name });
  } else {
    const userId = pick(users)!;
    const handle = `h${tag()}`;
    say({ t: 'intent', op: 'handle', id: userId, name: handle });
    await store.setHandle(userId, handle);
    say({ t: 'ack', op: 'handle', id: userId, name: handle });
  }
}

// One match at a time, so each completion's ratings follow from the last.
async function matchWrite(): Promise<void> {
  const seats = [...new Set(Array.from({ length: 4 }, () => pick(bots)!))];
  if (seats.length < 3) return;
  const m = runningMatch(seats);
  say({ t: 'intent', op: 'match', id: m.id, status: 'running' });
  await store.putMatch(m);
  say({ t: 'ack', op: 'match', id: m.id, status: 'running' });
  if (Math.random() < 0.25) {
    say({ t: 'intent', op: 'match', id: m.id, status: 'aborted' });
    await store.putMatch(aborted(m));
    say({ t: 'ack', op: 'match', id: m.id, status: 'aborted' });
    return;
  }
  const done = completed(m, 50);
  // mu = 25 + games played: the parent checks ratings against the completed matches.
  const ratings: RatingRecord[] = await Promise.all(
    done.players.map(async (p) => {
      const n = ((await store.getRating(p.botId, 'pioneers'))?.gamesPlayed ?? 0) + 1;
      return { botId: p.botId, game: 'pioneers' as const, mu: 25 + n, sigma: 8 - n / 100, gamesPlayed: n };
    }),
  );
  say({ t: 'intent', op: 'match', id: m.id, status: 'completed' });
  await store.completeMatch(done, ratings);
  say({ t: 'ack', op: 'match', id: m.id, status: 'completed' });
}

async function loop(write: () => Promise<void>): Promise<never> {
  for (;;) await write();
}

await docWrite();
while (bots.length < 4) await docWrite();
await Promise.all([loop(docWrite), loop(docWrite), loop(matchWrite)]);
