// `arena play --web` / `arena replay --web` (src/web-local: above arena and service, below cli): the dashboard's match
// pages for
// local games, on 127.0.0.1, with no account and no data directory. It serves
// the built dashboard (src/service/dashboard.ts mountDashboard, as `serve`
// does) and the few read routes its home and match pages use, over games held
// in memory: GET /matches, /matches/{id}, /matches/{id}/live (the live hub
// and SSE format of src/service/live, as `serve` streams them), /leaderboard.
// Local records keep the bots' notes: this is the owner's own machine.
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { seatOrder } from '../../engine/index';
import type { LeaderboardRow, MatchEvent, MatchRecord } from '../protocol/index';
import type { MatchResult, RunMatchOptions } from '../runner/index';
import { mountDashboard } from '../service/dashboard';
import { LiveHub } from '../service/live/hub';
import { parseLastEventId, sseMessage, SSE_HEADERS, streamChannel } from '../service/live/sse';

/** The games of a local tournament or replay, as the pages see them. */
export class LocalGames {
  readonly hub = new LiveHub();
  /** Newest first once listed; running games have a header record (no seed, no replay). */
  private readonly records = new Map<string, MatchRecord>();
  /** The leaderboard rows (the tournament's ratings so far), when there are any. */
  leaderboard: () => LeaderboardRow[] = () => [];

  /** A finished record (e.g. one `arena replay --web` opened). */
  add(record: MatchRecord): void {
    this.records.set(record.id, record);
  }

  list(): MatchRecord[] {
    return [...this.records.values()].reverse();
  }

  get(id: string): MatchRecord | undefined {
    return this.records.get(id);
  }

  /**
   * Wraps the runner (TournamentOptions.playMatch): each match is listed as
   * running and streamed live while it plays, then listed with its record.
   */
  wrap(play: (opts: RunMatchOptions) => Promise<MatchResult>): (opts: RunMatchOptions) => Promise<MatchResult> {
    return async (opts) => {
      const n = opts.entrants.length;
      const players = seatOrder(opts.seed, n).map((i, seat) => ({
        seat,
        botId: opts.entrants[i].botId,
        botName: opts.entrants[i].botName,
        placement: null,
        ratingDelta: null,
      }));
      const startedAt = new Date().toISOString();
      const header: MatchRecord = {
        id: opts.matchId,
        game: 'pioneers',
        status: 'running',
        players,
        startedAt,
        endedAt: null,
        seed: null,
        replay: [],
        rulesVersion: '',
        seatCount: n,
        vp: null,
      };
      this.records.set(opts.matchId, header);
      const channel = this.hub.open({ id: opts.matchId, game: 'pioneers', status: 'running', players, startedAt });
      let batch: MatchEvent[] = [];
      try {
        const result = await play({
          ...opts,
          onEvent: (ev) => {
            batch.push(ev);
            opts.onEvent?.(ev);
          },
          onFlush: (view) => {
            const events = batch;
            batch = [];
            channel.publish(events, view);
            opts.onFlush?.(view);
          },
        });
        const m = result.match;
        this.records.set(m.id, m);
        this.hub.close(m.id, {
          status: m.status === 'completed' ? 'completed' : 'aborted',
          players: m.players,
          endedAt: m.endedAt ?? new Date().toISOString(),
        });
        return result;
      } catch (err) {
        this.records.set(opts.matchId, { ...header, status: 'aborted', endedAt: new Date().toISOString() });
        this.hub.close(opts.matchId, { status: 'aborted', players, endedAt: new Date().toISOString() });
        throw err;
      }
    };
  }
}

export interface LocalWeb {
  url: string;
  close(): Promise<void>;
}

/** Serves the dashboard over `games` on 127.0.0.1:`port` (0 picks a free one). */
export async function startLocalWeb(
  games: LocalGames,
  opts: { port?: number; webDir?: string } = {},
): Promise<LocalWeb> {
  const app = new Hono();
  // First, as in the service (app.ts): a browser that opens /matches/ID or /leaderboard gets the page, not JSON.
  mountDashboard(app, opts.webDir ? { dir: opts.webDir } : {});
  const notFound = (what: string) => ({ error: { code: 'not_found', message: `no ${what}` } });
  // Nobody signs in here: the dashboard shows the signed-out pages.
  app.get('/me', (c) => c.json({ error: { code: 'unauthorized', message: 'local games: no account' } }, 401));
  app.get('/leaderboard', (c) => c.json({ game: 'pioneers', rows: games.leaderboard() }));
  app.get('/matches', (c) => {
    const status = c.req.query('status');
    const botId = c.req.query('botId');
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit')) || 20));
    const rows = games
      .list()
      .filter((m) => (!status || m.status === status) && (!botId || m.players.some((p) => p.botId === botId)))
      .slice(0, limit)
      .map(({ id, game, status: s, players, startedAt, endedAt }) => ({
        id,
        game,
        status: s,
        players,
        startedAt,
        endedAt,
      }));
    return c.json({ matches: rows, next: null });
  });
  app.get('/matches/:id', (c) => {
    const m = games.get(c.req.param('id'));
    return m ? c.json(m, 200, { 'Cache-Control': 'no-store' }) : c.json(notFound('match'), 404);
  });
  app.get('/matches/:id/live', (c) => {
    const id = c.req.param('id');
    const channel = games.hub.get(id);
    if (!channel) {
      const m = games.get(id);
      if (!m) return c.json(notFound('match'), 404);
      // Finished: the page loads its replay instead; tell a live viewer it ended.
      return c.body(
        sseMessage('end', { id, status: m.status, players: m.players, endedAt: m.endedAt }),
        200,
        SSE_HEADERS,
      );
    }
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (!outgoing) throw new Error('live streams need the Node HTTP server');
    streamChannel(outgoing, channel, parseLastEventId(c.req.header('last-event-id')));
    return RESPONSE_ALREADY_SENT as never;
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: '127.0.0.1' }, () =>
      resolve(s as Server),
    ) as Server;
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
