// GET /bots/{id}/opponents (head-to-head) and GET /matches?botId=&vs= over the
// real HTTP app and store (file, or Postgres in the postgres project), with
// matches stored as the scheduler stores them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpponentPageSchema } from '../../../src/protocol/api';
import type { StoredMatch } from '../../../src/service/store/types';
import { completed, ratingsFor, runningMatch, aborted } from '../store/store-fixtures';
import { startHarness, type Harness } from '../support/api-harness';

describe('head-to-head over the API', () => {
  let h: Harness;
  const ids: Record<string, string> = {};
  const together: string[] = [];

  async function play(
    places: Array<[string, number]>,
    status: 'completed' | 'aborted' = 'completed',
  ): Promise<StoredMatch> {
    const m = runningMatch(places.map(([n]) => ids[n]));
    if (status === 'aborted') {
      await h.store.putMatch(aborted(m));
      return m;
    }
    const c = completed(m);
    const done = {
      ...c,
      players: c.players.map((p, i) => ({ ...p, placement: places[i][1] })),
      rated: places.length % 2 === 0,
    };
    await h.store.completeMatch(done, ratingsFor(done));
    return done;
  }

  beforeAll(async () => {
    h = await startHarness({
      dev: true,
      rateLimits: {
        key: { perSecond: 100, burst: 500 },
        address: { perSecond: 100, burst: 500 },
        keyCreations: { perSecond: 1, burst: 5 },
      },
    });
    const ann = await h.addUser('ann@example.com', 'ann');
    const bob = await h.addUser('bob@example.com', 'bob');
    for (const [name, owner] of [
      ['alpha', ann],
      ['bravo', bob],
      ['charlie', bob],
      ['delta', ann],
      ['echo', bob],
    ] as const) {
      ids[name] = (
        await h.store.addBot({
          ownerId: owner.id,
          name,
          game: 'pioneers',
          url: `wss://${name}.secret-host.example/play`,
        })
      ).id;
    }
    const seat = async (places: Array<[string, number]>, status?: 'aborted') => {
      const m = await play(places, status);
      if (places.some(([n]) => n === 'alpha') && places.some(([n]) => n === 'bravo')) together.push(m.id);
    };
    await seat([
      ['alpha', 1],
      ['bravo', 2],
      ['charlie', 3],
    ]);
    await seat([
      ['bravo', 1],
      ['alpha', 2],
      ['charlie', 3],
      ['delta', 4],
    ]);
    await seat([
      ['charlie', 1],
      ['alpha', 2],
      ['bravo', 2],
    ]);
    await seat(
      [
        ['alpha', 1],
        ['bravo', 2],
        ['echo', 3],
      ],
      'aborted',
    );
    await seat([
      ['alpha', 3],
      ['delta', 1],
      ['echo', 2],
    ]);
    await seat([
      ['bravo', 1],
      ['charlie', 2],
      ['delta', 3],
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists each opponent with games, above (count and share) and both mean placements; never a URL', async () => {
    const r = await h.send('GET', `/bots/${ids.alpha}/opponents`);
    expect(r.status).toBe(200);
    const page = OpponentPageSchema.parse(r.json);
    expect(page.botId).toBe(ids.alpha);
    expect(page.next).toBeNull();
    // sort=games, most first; ties by bot id.
    expect(page.opponents.map((o) => o.games)).toEqual([3, 3, 2, 1]);
    const by = Object.fromEntries(page.opponents.map((o) => [o.name, o]));
    expect(by.bravo).toEqual({
      botId: ids.bravo,
      name: 'bravo',
      owner: 'bob',
      games: 3,
      above: 1,
      aboveShare: 1 / 3,
      meanPlacement: 5 / 3,
      opponentMeanPlacement: 5 / 3,
    });
    expect(by.charlie).toMatchObject({ games: 3, above: 2, meanPlacement: 5 / 3, opponentMeanPlacement: 7 / 3 });
    expect(by.delta).toMatchObject({
      owner: 'ann',
      games: 2,
      above: 1,
      aboveShare: 0.5,
      meanPlacement: 2.5,
      opponentMeanPlacement: 2.5,
    });
    // The aborted match does not count: echo met alpha once, in a completed match.
    expect(by.echo).toMatchObject({ games: 1, above: 0, meanPlacement: 3, opponentMeanPlacement: 2 });
    expect(r.text).not.toContain('secret-host');
    expect(r.text).not.toContain('url');
  });

  it('sorts by above share or name, either order', async () => {
    const names = async (q: string) =>
      ((await h.send('GET', `/bots/${ids.alpha}/opponents?${q}`)).json.opponents as Array<{ name: string }>).map(
        (o) => o.name,
      );
    expect(await names('sort=above')).toEqual(['charlie', 'delta', 'bravo', 'echo']);
    expect(await names('sort=above&order=asc')).toEqual(['echo', 'bravo', 'delta', 'charlie']);
    expect(await names('sort=name')).toEqual(['bravo', 'charlie', 'delta', 'echo']);
    expect(await names('sort=name&order=desc')).toEqual(['echo', 'delta', 'charlie', 'bravo']);
  });

  it('pages with an opaque cursor that covers every opponent once', async () => {
    for (const sort of ['games', 'above', 'name']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r = await h.send(
          'GET',
          `/bots/${ids.alpha}/opponents?sort=${sort}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(r.status).toBe(200);
        seen.push(...r.json.opponents.map((o: { name: string }) => o.name));
        cursor = r.json.next;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(4);
      const all = (await h.send('GET', `/bots/${ids.alpha}/opponents?sort=${sort}`)).json.opponents.map(
        (o: { name: string }) => o.name,
      );
      expect(seen).toEqual(all);
    }
  });

  it('refuses bad queries and unknown bots with a clear error', async () => {
    const first = await h.send('GET', `/bots/${ids.alpha}/opponents?limit=1`);
    for (const [q, status, msg] of [
      ['sort=rating', 400, /sort/],
      ['limit=0', 400, /limit/],
      ['limit=101', 400, /limit/],
      ['cursor=bogus', 400, /cursor/],
      [`sort=name&cursor=${encodeURIComponent(first.json.next)}`, 400, /another sort/],
    ] as const) {
      const r = await h.send('GET', `/bots/${ids.alpha}/opponents?${q}`);
      expect(r.status, q).toBe(status);
      expect(r.json.error.code).toBe('invalid_request');
      expect(r.json.error.message).toMatch(msg);
    }
    const none = await h.send('GET', '/bots/b_nobody/opponents');
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe('not_found');
    // A bot with no completed match has no opponents.
    const lone = await h.store.addBot({
      ownerId: (await h.store.getBot(ids.alpha))!.ownerId,
      name: 'lone',
      game: 'pioneers',
      url: 'wss://lone.example/',
    });
    expect((await h.send('GET', `/bots/${lone.id}/opponents`)).json).toEqual({
      botId: lone.id,
      opponents: [],
      next: null,
    });
  });

  it('openapi.json describes the route and the vs filter', async () => {
    const doc = (await h.send('GET', '/openapi.json')).json;
    const route = doc.paths['/bots/{id}/opponents'].get;
    expect(route.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'cursor',
      'game',
      'id',
      'limit',
      'order',
      'sort',
    ]);
    expect(route.security ?? []).toEqual([]);
    expect(doc.paths['/matches'].get.parameters.map((p: { name: string }) => p.name)).toContain('vs');
  });

  it('GET /matches?botId=A&vs=B lists the matches both played, aborted ones included', async () => {
    const r = await h.send('GET', `/matches?botId=${ids.alpha}&vs=${ids.bravo}&limit=2`);
    expect(r.status).toBe(200);
    const r2 = await h.send(
      'GET',
      `/matches?botId=${ids.alpha}&vs=${ids.bravo}&limit=2&cursor=${encodeURIComponent(r.json.next)}`,
    );
    expect([...r.json.matches, ...r2.json.matches].map((m: { id: string }) => m.id)).toEqual([...together].reverse());
    expect(r2.json.next).toBeNull();
    const none = await h.send('GET', `/matches?botId=${ids.bravo}&vs=${ids.echo}`);
    expect(none.json.matches.map((m: { status: string }) => m.status)).toEqual(['aborted']);
  });
});
