// Head-to-head, public: GET /bots/{id}/opponents, a bot's record against each
// opponent it met in completed matches. The store tallies (Store.headToHead,
// one aggregate); this route names the opponents, sorts and pages in memory
// (a bot meets at most as many opponents as there are bots).
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { GameSchema, OPPONENT_SORTS, OpponentPageSchema, type OpponentRow } from '../../../protocol/api';
import type { BotRecord, Store } from '../../store/types';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { IdParam, json, NOT_FOUND, PageLimit, PUBLIC_ERRORS } from '../openapi-kit';

type Sort = (typeof OPPONENT_SORTS)[number];
type Order = 'asc' | 'desc';

/**
 * What a cursor carries: the page's sort and its last row's keys (keyset paging: a new match never repeats a row on the
 * next page).
 */
const CursorSchema = z.strictObject({
  s: z.enum(OPPONENT_SORTS),
  o: z.enum(['asc', 'desc']),
  g: z.number().int().min(1),
  a: z.number().int().min(0),
  n: z.string().max(256),
  id: z.string().max(64),
});
type Cursor = z.infer<typeof CursorSchema>;

function encodeCursor(sort: Sort, order: Order, r: OpponentRow): string {
  const c: Cursor = { s: sort, o: order, g: r.games, a: r.above, n: r.name, id: r.botId };
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(text: string, sort: Sort, order: Order): Cursor {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    // reported below
  }
  const c = CursorSchema.safeParse(parsed);
  if (!c.success)
    throw new ApiError('invalid_request', 'cursor: not a cursor this server gave out; start again without it');
  if (c.data.s !== sort || c.data.o !== order)
    throw new ApiError(
      'invalid_request',
      'cursor: it belongs to another sort or order; pass the same sort and order as for the first page',
    );
  return c.data;
}

type Keys = { games: number; above: number; name: string; botId: string };

/** A total order: the sort's key in the asked order, then the bot id (ascending) so ties page stably. */
export function compareOpponents(sort: Sort, order: Order): (x: Keys, y: Keys) => number {
  const dir = order === 'asc' ? 1 : -1;
  return (x, y) => {
    let d = 0;
    if (sort === 'games') d = x.games - y.games;
    else if (sort === 'above')
      d = x.above * y.games - y.above * x.games || x.games - y.games; // by share (exact), then games
    else d = x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
    if (d !== 0) return d * dir;
    return x.botId < y.botId ? -1 : x.botId > y.botId ? 1 : 0;
  };
}

async function botsById(store: Store, ids: string[]): Promise<Map<string, BotRecord>> {
  if (store.getBots) return new Map((await store.getBots(ids)).map((b) => [b.id, b]));
  const out = new Map<string, BotRecord>();
  for (const id of ids) {
    const b = await store.getBot(id);
    if (b) out.set(id, b);
  }
  return out;
}

async function handles(store: Store, ownerIds: string[]): Promise<Map<string, string>> {
  if (store.getUsers) return new Map((await store.getUsers(ownerIds)).map((u) => [u.id, u.name]));
  const out = new Map<string, string>();
  for (const id of ownerIds) out.set(id, (await store.getUser(id))?.name ?? '');
  return out;
}

export function opponentRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, limit: MiddlewareHandler<AppEnv>): void {
  const { store } = deps;
  app.openapi(
    createRoute({
      method: 'get',
      path: '/bots/{id}/opponents',
      tags: ['matches'],
      summary: "A bot's record against each opponent it met (public)",
      description:
        "Over completed matches, rated or unrated (aborted ones have no placements). Public like the leaderboard: names, owners' handles and counts, never a URL. " +
        'sort=games (default, most first), above (share of games this bot finished above the opponent, best first; then games) or name (A first); order reverses. ' +
        'Paged like /matches: pass `next` as cursor with the same sort and order.',
      middleware: [limit] as const,
      request: {
        params: IdParam,
        query: z.object({
          game: GameSchema.default('pioneers'),
          sort: z.enum(OPPONENT_SORTS).default('games'),
          order: z.enum(['asc', 'desc']).optional().describe('Default: desc for games and above, asc for name.'),
          limit: PageLimit,
          cursor: z.string().max(400).optional(),
        }),
      },
      responses: { 200: json(OpponentPageSchema, 'A page of opponents'), ...NOT_FOUND, ...PUBLIC_ERRORS },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      const order: Order = q.order ?? (q.sort === 'name' ? 'asc' : 'desc');
      const after = q.cursor !== undefined ? decodeCursor(q.cursor, q.sort, order) : null;
      const bot = await store.getBot(id);
      if (!bot) throw new ApiError('not_found', `no bot ${id}`);
      const tallies = await store.headToHead(bot.id, q.game);
      const bots = await botsById(
        store,
        tallies.map((t) => t.opponentId),
      );
      const owners = await handles(store, [...new Set([...bots.values()].map((b) => b.ownerId))]);
      const rows: OpponentRow[] = tallies.map((t) => {
        const b = bots.get(t.opponentId);
        return {
          botId: t.opponentId,
          // A built-in bot (a qualifier's opponent) is no stored bot: its id is its name.
          name: b?.name ?? (t.opponentId.startsWith('builtin:') ? t.opponentId : ''),
          owner: b ? (owners.get(b.ownerId) ?? '') : '',
          games: t.games,
          above: t.above,
          aboveShare: t.above / t.games,
          meanPlacement: t.meanPlacement,
          opponentMeanPlacement: t.opponentMeanPlacement,
        };
      });
      const cmp = compareOpponents(q.sort, order);
      rows.sort(cmp);
      const from = after
        ? rows.findIndex((r) => cmp(r, { games: after.g, above: after.a, name: after.n, botId: after.id }) > 0)
        : 0;
      const page = from < 0 ? [] : rows.slice(from, from + q.limit);
      const more = from >= 0 && from + q.limit < rows.length;
      return c.json(
        { botId: bot.id, opponents: page, next: more ? encodeCursor(q.sort, order, page[page.length - 1]) : null },
        200,
      );
    },
  );
}
