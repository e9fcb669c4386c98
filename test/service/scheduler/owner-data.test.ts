// What a bot's owner alone sees of its matches on the server: real WebSocket
// bots on loopback play a match under `serve`; the owner reads the strike log
// (code, message, decision, the answer's first bytes) and the notes its bot
// sent; another owner and an anonymous client get refused with nothing of
// either; the public record and /matches/{id} carry no notes and no answers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMatchNotes, listBotStrikes } from '../../../src/client/owner';
import { sendSigned } from '../../../src/client/signed-request';
import type { ApiTarget } from '../../../src/client/api';
import { generateKeyPair, privateKeyToPem, publicKeyRaw } from '../../../src/keys/index';
import { runCli } from '../../support/run-cli';
import { garbageBot, illegalBot, legalPlayer, wellBehaved } from '../../support/policies';
import type { Behaviour } from '../../support/test-bot';
import { startArena, type Arena } from '../../support/serve-arena';

const SECRET = 'secret-plan-';

/** Plays legally and sends a note with every answer. */
function noteTaker(): Behaviour {
  const play = legalPlayer();
  return (ctx) => {
    const action = play(ctx.request.view, ctx.request.kind, ctx.request.matchId);
    ctx.socket.send(JSON.stringify({ id: ctx.request.id, action, debug: { why: `${SECRET}${ctx.index}` } }));
  };
}

let arena: Arena;
let owner: ApiTarget;
let stranger: ApiTarget;
let matchId: string;
let [illegal, noter, garbage, plain] = ['', '', '', ''];

async function keyFor(email: string): Promise<ApiTarget> {
  const user = (await arena.store.getUserByEmail(email)) ?? (await arena.store.createUser({ email }));
  const pair = generateKeyPair();
  const key = await arena.store.addKey({
    userId: user.id,
    name: 'k',
    publicKey: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64'),
    scopes: ['bots.read'],
  });
  return { baseUrl: arena.url, keyId: key.id, privateKey: pair.privateKey };
}

/** `arena ARGS` signed with the target's key (flags from the environment, as a user's shell would give them). */
function cliAs(t: ApiTarget, args: string[]) {
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
}

async function signedGet(t: ApiTarget, path: string): Promise<{ status: number; text: string }> {
  const res = await sendSigned({ ...t, method: 'GET', path });
  return { status: res.status, text: res.body.toString('utf8') };
}

beforeAll(async () => {
  arena = await startArena([illegalBot(2), noteTaker(), garbageBot(1), wellBehaved()]);
  [illegal, noter, garbage, plain] = arena.bots.map((b) => b.id);
  owner = await keyFor('owner@example.com');
  stranger = await keyFor('stranger@example.com');
  [matchId] = await arena.tick();
  await arena.idle();
}, 60_000);

afterAll(async () => {
  await arena?.close();
});

describe("the owner's view of their bots' matches", () => {
  it('the owner reads the strike log: code, message, decision and the first bytes of the answer', async () => {
    const match = await arena.store.getMatch(matchId);
    expect(match?.status).toBe('completed');
    const page = await listBotStrikes(owner, illegal);
    expect(page.strikes).toHaveLength(2);
    for (const s of page.strikes) {
      expect(s).toMatchObject({
        matchId,
        at: match!.endedAt,
        reason: 'illegal',
        seat: match!.players.find((p) => p.botId === illegal)!.seat,
      });
      expect(s.code).toMatch(/^[a-z_]+$/);
      expect(s.message.length).toBeGreaterThan(0);
      expect(s.message.startsWith(`${s.code}:`)).toBe(false);
      expect(JSON.parse(s.answer!)).toMatchObject({ id: s.decisionId });
      expect(s.answerBytes).toBe(Buffer.byteLength(s.answer!));
    }
    // Newest first: the second strike (decision later) comes first.
    expect(page.strikes[0].decisionId).toBeGreaterThan(page.strikes[1].decisionId);
    expect(page.strikes.map((s) => s.strikes)).toEqual([2, 1]);
    const first = await listBotStrikes(owner, illegal, { limit: 1 });
    expect(first.strikes).toEqual([page.strikes[0]]);
    const second = await listBotStrikes(owner, illegal, { limit: 1, cursor: first.next });
    expect(second).toEqual({ strikes: [page.strikes[1]], next: null });

    const junk = await listBotStrikes(owner, garbage);
    expect(junk.strikes).toHaveLength(1);
    expect(junk.strikes[0]).toMatchObject({ reason: 'malformed', answer: '{"id": this is not json' });
    expect(await listBotStrikes(owner, plain)).toEqual({ strikes: [], next: null });
  });

  it("the owner reads their bot's notes in the match, and its strikes there", async () => {
    const notes = await getMatchNotes(owner, noter, matchId);
    const seat = (await arena.store.getMatch(matchId))!.players.find((p) => p.botId === noter)!.seat;
    expect(notes.notes.length).toBeGreaterThan(10);
    expect(notes.notes.every((n) => n.seat === seat && (n.debug as { why: string }).why.startsWith(SECRET))).toBe(true);
    expect(notes.strikes).toEqual([]);
    const struck = await getMatchNotes(owner, illegal, matchId);
    expect(struck.notes).toEqual([]);
    expect(struck.strikes.map((s) => s.decisionId)).toEqual(
      (await listBotStrikes(owner, illegal)).strikes.map((s) => s.decisionId).reverse(),
    );
    // A match the bot did not play, and one that does not exist: 404.
    expect((await signedGet(owner, `/bots/${noter}/matches/m_nothing/notes`)).status).toBe(404);
  });

  it('another owner and an anonymous client are refused and learn nothing', async () => {
    for (const path of [
      `/bots/${illegal}/strikes`,
      `/bots/${noter}/matches/${matchId}/notes`,
      `/bots/${garbage}/strikes?limit=1`,
    ]) {
      const other = await signedGet(stranger, path);
      expect(other.status).toBe(403);
      expect(JSON.parse(other.text).error.code).toBe('forbidden');
      const anon = await fetch(arena.url + path, { headers: { accept: 'application/json' } });
      expect(anon.status).toBe(401);
      for (const text of [other.text, await anon.text()]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('answer');
        expect(text).not.toContain('this is not json');
      }
    }
    // An unknown bot is 404 for anyone, the same as the other bot routes.
    expect((await signedGet(stranger, '/bots/b_nothing/strikes')).status).toBe(404);
  });

  it('the public record and /matches/{id} carry no notes and no struck answers', async () => {
    const res = await fetch(`${arena.url}/matches/${matchId}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const stored = JSON.stringify(await arena.store.getMatch(matchId));
    for (const t of [text, stored]) {
      // includes(), not toContain: a failure must not print the whole replay.
      for (const leak of [SECRET, '"debug"', '"answer"', '"answerBytes"']) expect(t.includes(leak), leak).toBe(false);
    }
    // The strike's reason class is still public, as before.
    expect(text).toContain('"malformed"');
    expect(arena.logText()).not.toContain(SECRET);
  });

  it('openapi.json describes both routes', async () => {
    const doc = (await (await fetch(`${arena.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown[] } }>;
    };
    for (const path of ['/bots/{id}/strikes', '/bots/{id}/matches/{matchId}/notes'])
      expect(doc.paths[path]?.get?.security, path).toHaveLength(2);
  });

  it('`arena bots strikes BOT` prints the log by name, and --json the page; another owner is refused', async () => {
    const page = await listBotStrikes(owner, illegal);
    const text = await cliAs(owner, ['bots', 'strikes', 'bot0']);
    expect(text.code, text.stderr).toBe(0);
    const first = page.strikes[0];
    expect(text.stdout).toContain(`${first.at} ${matchId}, `);
    expect(text.stdout).toContain(`illegal on a ${first.kind} decision ${first.decisionId} (strike 2 of 3)`);
    expect(text.stdout).toContain(`  why: ${first.code}: ${first.message}`);
    expect(text.stdout).toContain(`  answer (${first.answerBytes} bytes): ${first.answer}`);
    const json = await cliAs(owner, ['bots', 'strikes', illegal, '--json', '--limit', '1']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await listBotStrikes(owner, illegal, { limit: 1 }));
    expect(json.stderr).toBe('');
    const none = await cliAs(owner, ['bots', 'strikes', 'bot3']);
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('bot3 has no strikes');
    const refused = await cliAs(stranger, ['bots', 'strikes', illegal]);
    expect(refused.code).toBe(4); // EXIT.auth: refused by the server's owner rule
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('belongs to another account');
    expect((await cliAs(owner, ['bots', 'strikes', 'bot0', '--limit', '0'])).code).toBe(2);
  });
});
