// The public reads of an arena server (no key needed): the match list, one
// match, the leaderboard. Every answer is checked against the protocol's zod
// schema; an error body becomes an ApiError with the server's words.
import { z } from 'zod';
import { ErrorBodySchema, OpponentPageSchema, type OpponentPage } from '../protocol/api';
import {
  LeaderboardRowSchema,
  MatchRecordSchema,
  MatchStatusSchema,
  MatchSummarySchema,
  type LeaderboardRow,
  type MatchRecord,
  type MatchStatus,
  type MatchSummary,
} from '../protocol/match';
import { ApiError } from './api-error';
import { ClientError, unreachable } from './errors';
import { readAnswer } from './read-limited';

export const MatchPageSchema = z.strictObject({ matches: z.array(MatchSummarySchema), next: z.string().nullable() });
export const LeaderboardSchema = z.strictObject({ game: z.literal('pioneers'), rows: z.array(LeaderboardRowSchema) });

export interface MatchListQuery {
  botId?: string;
  /** Only matches this bot also played (with botId: both played). */
  vs?: string;
  status?: MatchStatus;
  /** 1..100 per page (the server's bound). */
  limit?: number;
  cursor?: string;
}

export interface PublicTarget {
  baseUrl: string;
  /** Tests and the bench may pass their own. */
  fetch?: typeof fetch;
}

/** The URL of a path under the base URL, keeping a base path prefix (https://host/arena). */
export function publicUrl(baseUrl: string, path: string): string {
  const base = new URL(baseUrl);
  return base.origin + base.pathname.replace(/\/+$/, '') + path;
}

/** GET a public path; the raw text of a 2xx answer. */
export async function getPublicText(t: PublicTarget, path: string): Promise<{ text: string; url: string }> {
  const url = publicUrl(t.baseUrl, path);
  let res: Response;
  try {
    res = await (t.fetch ?? fetch)(url, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw unreachable(url, err);
  }
  const text = (await readAnswer(res.body as unknown as AsyncIterable<Uint8Array> | null, url)).toString('utf8');
  if (res.status >= 400) throw errorOf(res.status, text);
  return { text, url };
}

async function getPublic<S extends z.ZodType>(t: PublicTarget, path: string, schema: S): Promise<z.infer<S>> {
  const { text } = await getPublicText(t, path);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ClientError(`GET ${path}: the server answered without JSON; is the URL an arena server?`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ClientError(
      `GET ${path}: the server's answer does not match the API (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}); is the server a different version?`,
    );
  }
  return parsed.data;
}

export function listMatches(
  t: PublicTarget,
  q: MatchListQuery = {},
): Promise<{ matches: MatchSummary[]; next: string | null }> {
  const params = new URLSearchParams({ game: 'pioneers' });
  if (q.status) params.set('status', MatchStatusSchema.parse(q.status));
  if (q.botId) params.set('botId', q.botId);
  if (q.vs) params.set('vs', q.vs);
  if (q.limit !== undefined) params.set('limit', String(q.limit));
  if (q.cursor) params.set('cursor', q.cursor);
  return getPublic(t, `/matches?${params}`, MatchPageSchema);
}

/**
 * Up to `limit` matches, following `next` across pages (the server gives at most 100 a page); `next` continues after
 * them.
 */
export async function listMatchesUpTo(
  t: PublicTarget,
  q: Omit<MatchListQuery, 'cursor' | 'limit'>,
  limit: number,
): Promise<{ matches: MatchSummary[]; next: string | null }> {
  const matches: MatchSummary[] = [];
  let next: string | null = null;
  do {
    const page = await listMatches(t, {
      ...q,
      limit: Math.min(100, limit - matches.length),
      cursor: next ?? undefined,
    });
    matches.push(...page.matches);
    next = page.matches.length === 0 ? null : page.next;
  } while (next && matches.length < limit);
  return { matches, next };
}

export function getMatch(t: PublicTarget, id: string): Promise<MatchRecord> {
  return getPublic(t, `/matches/${encodeURIComponent(id)}`, MatchRecordSchema);
}

export async function getLeaderboard(t: PublicTarget): Promise<LeaderboardRow[]> {
  return (await getPublic(t, '/leaderboard?game=pioneers', LeaderboardSchema)).rows;
}

export function errorOf(status: number, text: string): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = ErrorBodySchema.safeParse(parsed);
  if (body.success) return new ApiError(status, body.data.error.code, body.data.error.message);
  return new ApiError(status, 'http_error', `the server answered HTTP ${status}`);
}

export interface OpponentQuery {
  sort?: 'games' | 'above' | 'name';
  order?: 'asc' | 'desc';
}

/** Up to `limit` opponents of a bot (GET /bots/{id}/opponents), following `next` across pages. */
export async function listOpponentsUpTo(
  t: PublicTarget,
  botId: string,
  q: OpponentQuery,
  limit: number,
): Promise<OpponentPage> {
  const opponents: OpponentPage['opponents'] = [];
  let next: string | null = null;
  do {
    const params = new URLSearchParams({ game: 'pioneers', limit: String(Math.min(100, limit - opponents.length)) });
    if (q.sort) params.set('sort', q.sort);
    if (q.order) params.set('order', q.order);
    if (next) params.set('cursor', next);
    const page: OpponentPage = await getPublic(
      t,
      `/bots/${encodeURIComponent(botId)}/opponents?${params}`,
      OpponentPageSchema,
    );
    opponents.push(...page.opponents);
    next = page.opponents.length === 0 ? null : page.next;
  } while (next && opponents.length < limit);
  return { botId, opponents, next };
}
