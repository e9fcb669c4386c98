// Challenges end to end (issue 29 item 4): a real service with real WebSocket
// bots on 127.0.0.1 and two accounts. A challenge is played at the next tick,
// unrated, and shown as a challenge; no rating moves; a challenge whose
// opponent stopped accepting them is refused at the tick and never played.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, privateKeyToPem, publicKeyRaw } from '../../src/keys/index';
import { runCli } from '../support/run-cli';
import type { ApiTarget } from '../../src/client/api';
import { createChallenge, listChallenges, updateBot } from '../../src/client/owner';
import { wellBehaved } from '../support/policies';
import { startTestBot, type Behaviour, type TestBot } from '../support/test-bot';
import { startArena, type Arena } from '../support/serve-arena';

let arena: Arena;
let alice: ApiTarget;
let bob: ApiTarget;
const servers: TestBot[] = [];
let [a1, b1, b2, b3] = ['', '', '', ''];

async function account(email: string, handle: string): Promise<{ target: ApiTarget; userId: string }> {
  const user = await arena.store.createUser({ email, name: handle });
  const pair = generateKeyPair();
  const key = await arena.store.addKey({
    userId: user.id,
    name: 'k',
    publicKey: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64'),
    scopes: ['bots.read', 'bots.write'],
  });
  return { target: { baseUrl: arena.url, keyId: key.id, privateKey: pair.privateKey }, userId: user.id };
}

/** Open unless a test holds the bots' answers (to keep a match running while it looks). */
let hold: Promise<void> = Promise.resolve();
const held =
  (inner: Behaviour): Behaviour =>
  async (ctx) => {
    await hold;
    return inner(ctx);
  };

async function bot(ownerId: string, name: string): Promise<string> {
  const server = await startTestBot({ behaviour: held(wellBehaved()) });
  servers.push(server);
  return (await arena.store.addBot({ ownerId, name, game: 'pioneers', url: server.url })).id;
}

async function getJson(url: string): Promise<{ status: number; json: any }> {
  const res = await fetch(url);
  return { status: res.status, json: await res.json() };
}

beforeAll(async () => {
  arena = await startArena([]);
  const a = await account('alice@example.com', 'alice');
  const b = await account('bob@example.com', 'bob');
  alice = a.target;
  bob = b.target;
  a1 = await bot(a.userId, 'alice-1');
  b1 = await bot(b.userId, 'bob-1');
  b2 = await bot(b.userId, 'bob-2');
  b3 = await bot(b.userId, 'bob-3');
  // One rated match first, so every bot has a rating a challenge could move.
  expect(await arena.tick()).toHaveLength(1);
  await arena.idle();
});
afterAll(async () => {
  await arena?.close();
  for (const s of servers) await s.close();
});

describe('challenges', () => {
  it('a challenge is played at the next tick, unrated, shown as a challenge, and moves no rating', async () => {
    const ratings = await arena.store.listRatings('pioneers');
    expect(ratings).toHaveLength(4);
    const made = await createChallenge(alice, a1, [b1]);
    expect(made).toMatchObject({ botId: a1, opponents: [b1], status: 'pending', matchId: null });

    const started = await arena.tick();
    // The two bots left over make no table: the challenge is the only match.
    expect(started).toHaveLength(1);
    const [played] = await listChallenges(alice);
    expect(played).toMatchObject({ id: made.id, status: 'played', matchId: started[0] });
    await arena.idle();

    const record = await arena.store.getMatch(started[0]);
    expect(record).toMatchObject({ status: 'completed', rated: false, challenge: made.id, seatCount: 3 });
    // A table of 2 gets a built-in third seat.
    expect(record!.players.map((p) => p.botId).sort()).toEqual([a1, b1, 'builtin:greedy'].sort());
    expect(record!.players.every((p) => p.ratingDelta === null && p.placement !== null)).toBe(true);
    expect(await arena.store.listRatings('pioneers')).toEqual(ratings);

    // The public match list and match show it as a challenge.
    const list = await getJson(`${arena.url}/matches?botId=${a1}`);
    expect(list.json.matches[0]).toMatchObject({ id: started[0], rated: false, challenge: made.id });
    const one = await getJson(`${arena.url}/matches/${started[0]}`);
    expect(one.json).toMatchObject({ rated: false, challenge: made.id });
    // Bob, challenged, sees nothing of Alice's challenges.
    expect(await listChallenges(bob)).toEqual([]);
  });

  it('an opponent whose owner turns challenges off before the tick: refused at the tick with the reason, never played', async () => {
    const made = await createChallenge(alice, a1, [b2, b3]);
    const off = await updateBot(bob, b3, { challengeable: false });
    expect(off.challengeable).toBe(false);
    // b2 and b3 and a1 are idle, but the challenge is refused; a1, b2, b3 (and b1) then form a rated table.
    const started = await arena.tick();
    const [refused] = await listChallenges(alice);
    expect(refused).toMatchObject({ id: made.id, status: 'refused', matchId: null });
    expect(refused.reason).toMatch(new RegExp(`bot ${b3} does not accept challenges`));
    await arena.idle();
    for (const id of started) expect((await arena.store.getMatch(id))!.challenge).toBeUndefined();
    // And a new challenge naming it is refused at once.
    await expect(createChallenge(alice, a1, [b3])).rejects.toThrow(/does not accept challenges/);
    await updateBot(bob, b3, { challengeable: true });
  });

  it('waits while a bot is playing and is played at the first tick all are idle', async () => {
    // Another rated match is running with every bot (held until released); the challenge must wait for it.
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    const busy = await arena.tick();
    expect(busy).toHaveLength(1);
    const made = await createChallenge(alice, a1, [b1, b2, b3]);
    expect(await arena.tick()).toEqual([]);
    expect((await listChallenges(alice, 1))[0].status).toBe('pending');
    release();
    await arena.idle();
    const started = await arena.tick();
    expect(started).toHaveLength(1);
    expect((await listChallenges(alice, 1))[0]).toMatchObject({ id: made.id, status: 'played', matchId: started[0] });
    await arena.idle();
    expect(await arena.store.getMatch(started[0])).toMatchObject({
      status: 'completed',
      rated: false,
      challenge: made.id,
      seatCount: 4,
    });
  });

  it('the CLI: arena challenge, arena challenges, arena bots update --challengeable, and the match list says challenge', async () => {
    const cliAs = (t: ApiTarget, args: string[]) => {
      const file = join(arena.dir, `${t.keyId}.pem`);
      writeFileSync(file, privateKeyToPem(t.privateKey), { mode: 0o600 });
      return runCli(args, {
        env: {
          HOME: arena.dir,
          ARENA_CONFIG_DIR: join(arena.dir, 'config'),
          ARENA_URL: arena.url,
          ARENA_KEY_ID: t.keyId,
          ARENA_KEY_FILE: file,
        },
      });
    };
    // Alice names her own bot by name; opponents by id.
    const made = await cliAs(alice, ['challenge', 'alice-1', b1, b2]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/status:\s+pending/);
    expect(made.stderr).toMatch(/arena challenges/);
    const started = await arena.tick();
    expect(started).toHaveLength(1);
    await arena.idle();
    const list = await cliAs(alice, ['challenges', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).challenges[0]).toMatchObject({
      botId: a1,
      opponents: [b1, b2],
      status: 'played',
      matchId: started[0],
    });
    const table = await cliAs(alice, ['challenges']);
    expect(table.stdout).toMatch(new RegExp(`played\\s+${started[0]}`));
    const matches = await cliAs(alice, ['matches', 'list', '--bot', a1]);
    expect(matches.stdout).toMatch(new RegExp(`${started[0]}\\s+completed challenge`));
    const shown = await cliAs(alice, ['matches', 'show', started[0]]);
    expect(shown.stdout).toMatch(/completed, a challenge \(c_[^)]+\): unrated/);

    const off = await cliAs(bob, ['bots', 'update', b2, '--challengeable', 'false']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(/challenges:\s+refused/);
    const refused = await cliAs(alice, ['challenge', 'alice-1', b2]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/does not accept challenges/);
    const bad = await cliAs(bob, ['bots', 'update', b2, '--challengeable', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--challengeable is true or false/);
    expect((await cliAs(bob, ['bots', 'update', b2, '--challengeable', 'true'])).stdout).toMatch(
      /challenges:\s+accepted/,
    );
  });
});
