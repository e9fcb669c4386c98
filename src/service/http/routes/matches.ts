// The match plane's public reads (spec section 1, docs/decisions.md): the match
// list, one match (seed and replay withheld while it runs), the leaderboard,
// and live spectating over Server-Sent Events.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { z } from 'zod';
import { publicView, stepReplay, type Game } from '../../../../engine/index';
import { displayRating } from '../../../arena/ratings';
import { GameSchema } from '../../../protocol/api';
import {
  LeaderboardRowSchema,
  MatchStatusSchema,
  MatchSummarySchema,
  type LeaderboardRow,
  type MatchRecord,
} from '../../../protocol/index';
import { publicMatchEvent, SNAPSHOT_RECENT_EVENTS } from '../../live/hub';
import { parseLastEventId, sseMessage, SSE_HEADERS, streamChannel } from '../../live/sse';
import { FinishedLiveCache, type FinishedLive } from '../../live/finished-cache';
import { StreamSlots } from '../../live/stream-limit';
import { InvalidCursor, type StoredMatch } from '../../store/types';
import type { AppDeps } from '../deps';
import { clientKey } from '../client-limit';
import type { AppEnv } from '../env';
import { ApiError, rateLimited } from '../errors';
import { IdParam, json, NOT_FOUND, PageLimit, PUBLIC_ERRORS } from '../openapi-kit';
import type { MiddlewareHandler } from 'hono';

/** What anyone may see of a stored match: no seed and no replay while it runs. */
export function publicMatch(m: StoredMatch): MatchRecord {
  if (m.status !== 'running') return m;
  return { ...m, seed: null, replay: [], vp: null };
}

/** The final public view of a finished match, rebuilt from its (now public) seed and replay. */
function finalView(m: StoredMatch) {
  if (!m.seed) return null;
  let last: Game | null = null;
  const r = stepReplay(m.seed, m.seatCount as 3 | 4, m.replay, (g) => {
    last = g;
  });
  return r.ok || last ? publicView(last!) : null;
}

/** Strikes per seat at the end of the stored replay. */
function strikesOf(m: StoredMatch): number[] {
  const strikes = m.players.map(() => 0);
  for (const ev of m.replay) if (ev.kind === 'timeout') strikes[ev.seat] = ev.data.strikes;
  return strikes;
}

/** The /live answers of a finished match (status completed or aborted): built once, then cached. */
function finishedLive(m: StoredMatch): FinishedLive {
  const { seed: _s, replay: _r, ...header } = publicMatch(m);
  const final = finalView(m);
  const lastSeq = m.replay.length - 1;
  const end = sseMessage('end', { id: m.id, status: m.status, players: m.players, endedAt: m.endedAt });
  const strikes = strikesOf(m);
  const recent = m.replay.slice(-SNAPSHOT_RECENT_EVENTS).map(publicMatchEvent);
  return {
    snapshot: sseMessage('snapshot', { match: header, seq: lastSeq, view: final, recent, strikes }) + end,
    tail: (final ? sseMessage('view', { seq: lastSeq, view: final }) : '') + end,
    lastSeq,
  };
}

/** One message for every way a page size can be wrong (not a number, a fraction, out of range). */

export function matchRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, limit: MiddlewareHandler<AppEnv>): void {
  const { store } = deps;
  const streams = new StreamSlots(deps.liveStreamsPerAddress);
  const finished = new FinishedLiveCache();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/matches',
      tags: ['matches'],
      summary: 'Matches, newest first',
      middleware: [limit] as const,
      request: {
        query: z.object({
          game: GameSchema.optional(),
          status: MatchStatusSchema.optional(),
          botId: z.string().max(64).optional(),
          vs: z
            .string()
            .max(64)
            .optional()
            .describe('Only matches this bot also played: with botId, the matches both played.'),
          limit: PageLimit,
          cursor: z.string().max(200).optional(),
        }),
      },
      responses: {
        200: json(
          z.object({ matches: z.array(MatchSummarySchema), next: z.string().nullable() }),
          'A page; pass `next` as cursor for the following one',
        ),
        ...PUBLIC_ERRORS,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      try {
        const page = await store.listMatchSummaries({
          game: q.game,
          status: q.status,
          botId: q.botId,
          vs: q.vs,
          limit: q.limit,
          cursor: q.cursor ?? null,
        });
        return c.json(
          {
            matches: page.matches.map(
              ({ rulesVersion: _r, seatCount: _s, vp: _v, timeUsedMs: _t, ...summary }) => summary,
            ),
            next: page.next,
          },
          200,
        );
      } catch (err) {
        if (err instanceof InvalidCursor)
          throw new ApiError('invalid_request', 'cursor: not a cursor this server gave out; start again without it');
        throw err;
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/matches/{id}',
      tags: ['matches'],
      summary: 'One match; seed and replay become public when it ends',
      middleware: [limit] as const,
      request: { params: IdParam },
      // The protocol component (a JSON Schema from the same zod schema): the replay's event union is beyond the route
      // generator.
      responses: {
        200: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/MatchRecord' } } },
          description: 'The match',
        },
        ...NOT_FOUND,
        ...PUBLIC_ERRORS,
      },
    }),
    async (c) => {
      const m = await store.getMatch(c.req.valid('param').id);
      if (!m) throw new ApiError('not_found', `no match ${c.req.valid('param').id}`);
      // Typed by the component above, not by a route schema.
      return c.json(
        publicMatch(m),
        200,
        m.status === 'running' ? { 'Cache-Control': 'no-store' } : { 'Cache-Control': 'public, max-age=60' },
      ) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/leaderboard',
      tags: ['matches'],
      summary: 'Every bot with a completed match, by rating',
      middleware: [limit] as const,
      request: { query: z.object({ game: GameSchema.default('pioneers') }) },
      responses: {
        200: json(
          z.object({ game: GameSchema, rows: z.array(LeaderboardRowSchema) }),
          'Rating = mu - 3*sigma, 1 decimal; ties share a rank',
        ),
        ...PUBLIC_ERRORS,
      },
    }),
    async (c) => {
      const { game } = c.req.valid('query');
      const ratings = (await store.listRatings(game)).filter((r) => r.gamesPlayed > 0);
      const rows: Array<Omit<LeaderboardRow, 'rank'>> = [];
      const owners = new Map<string, string>();
      // A database store reads every bot and owner in two queries, not two per row (bench serve: 10,000 bots).
      const bots = store.getBots
        ? new Map((await store.getBots(ratings.map((r) => r.botId))).map((b) => [b.id, b]))
        : null;
      if (bots && store.getUsers)
        for (const u of await store.getUsers([...new Set([...bots.values()].map((b) => b.ownerId))]))
          owners.set(u.id, u.name);
      for (const r of ratings) {
        const bot = bots ? (bots.get(r.botId) ?? null) : await store.getBot(r.botId);
        if (!bot || bot.removedAt !== null) continue;
        if (!owners.has(bot.ownerId)) owners.set(bot.ownerId, (await store.getUser(bot.ownerId))?.name ?? '');
        rows.push({
          botId: bot.id,
          name: bot.name,
          owner: owners.get(bot.ownerId)!,
          rating: displayRating(r),
          gamesPlayed: r.gamesPlayed,
        });
      }
      rows.sort((a, b) => b.rating - a.rating || a.botId.localeCompare(b.botId));
      let rank = 0;
      const ranked = rows.map((row, i) => {
        if (i === 0 || row.rating !== rows[i - 1].rating) rank = i + 1;
        return { rank, ...row };
      });
      return c.json({ game, rows: ranked }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/matches/{id}/live',
      tags: ['live'],
      summary: 'Follow a match: Server-Sent Events',
      description: [
        'Events: `snapshot` {match, seq, view: PublicView, recent: PublicMatchEvent[], strikes: number[] per seat} first;',
        'then `event` (id = seq, data = PublicMatchEvent) per replay event and `view` {seq, view} after each batch;',
        'then `end` {id, status, players, endedAt}. Reconnect with Last-Event-ID to resume without gaps or repeats, also after the match ended.',
        "A finished match answers with its final state and `end`. Only public information: card counts, never hands, dev card identities, the seed or an illegal answer's rejection details.",
        'One client address may hold a limited number of streams of running matches open at once (32 by default), and the server a limited number in all (serve --max-live-streams); past either the answer is 429 rate_limited.',
      ].join(' '),
      middleware: [limit] as const,
      request: { params: IdParam },
      responses: {
        200: { content: { 'text/event-stream': { schema: z.string() } }, description: 'The event stream' },
        ...NOT_FOUND,
        ...PUBLIC_ERRORS,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      let channel = deps.hub.get(id);
      if (!channel) {
        // A finished match: its answers are cached (finishedLive), a replay of the game each is too dear.
        const lastEventId = parseLastEventId(c.req.header('last-event-id'));
        const done = finished.get(id);
        if (done && (lastEventId === null || lastEventId >= done.lastSeq)) {
          return c.body(
            lastEventId === null || lastEventId > done.lastSeq ? done.snapshot : done.tail,
            200,
            SSE_HEADERS,
          );
        }
        // Played by another process on the same database (a hub shared through it; the in-memory hub has none).
        channel = await deps.hub.find(id);
      }
      if (!channel) {
        const lastEventId = parseLastEventId(c.req.header('last-event-id'));
        let done = finished.get(id);
        const m = await store.getMatch(id);
        if (!m) throw new ApiError('not_found', `no match ${id}`);
        if (m.status === 'running') channel = await deps.hub.find(id, true);
        if (!channel && m.status === 'running') {
          // In the store but not live (the hub has not opened it): what anyone may see of it, then end.
          const { seed: _s, replay: _r, ...header } = publicMatch(m);
          const end = sseMessage('end', { id: m.id, status: m.status, players: m.players, endedAt: m.endedAt });
          return c.body(
            sseMessage('snapshot', {
              match: header,
              seq: m.replay.length - 1,
              view: null,
              recent: [],
              strikes: strikesOf(m),
            }) + end,
            200,
            SSE_HEADERS,
          );
        }
        if (!channel) {
          if (!done) finished.set(id, (done = finishedLive(m)));
          // A viewer that lost the stream while the match ended resumes from its last event, as from a running one.
          if (lastEventId !== null && lastEventId < done.lastSeq) {
            let body = '';
            for (let seq = lastEventId + 1; seq < m.replay.length; seq++)
              body += sseMessage('event', publicMatchEvent(m.replay[seq]), seq);
            return c.body(body + done.tail, 200, SSE_HEADERS);
          }
          return c.body(
            lastEventId === null || lastEventId > done.lastSeq ? done.snapshot : done.tail,
            200,
            SSE_HEADERS,
          );
        }
      }
      const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
      if (!outgoing || typeof outgoing.writeHead !== 'function')
        throw new Error('live streams need the Node HTTP server (@hono/node-server)');
      const lastEventId = parseLastEventId(c.req.header('last-event-id'));
      const address = clientKey(c, deps.trustProxy);
      if (!streams.take(address))
        throw rateLimited(deps.metrics, 'too many live streams open from this address; close one, then retry', 5);
      // The connection leaves the request connections' budget for the live streams' (connection-limit.ts).
      if (outgoing.socket && deps.connections && !deps.connections.toLive(outgoing.socket)) {
        streams.release(address);
        throw rateLimited(
          deps.metrics,
          'the server holds as many live streams as it may (serve --max-live-streams); retry later',
          5,
        );
      }
      streamChannel(outgoing, channel, lastEventId, () => {
        streams.release(address);
        deps.metrics.setLiveViewers(deps.hub.viewerCount());
      });
      deps.metrics.setLiveViewers(deps.hub.viewerCount());
      return RESPONSE_ALREADY_SENT as never;
    },
  );
}
