// The dashboard's HTTP client: same-origin fetch with the session cookie.
// Private reads and every write use `cache: 'no-store'` so no browser or proxy
// cache keeps what belongs to one user. Writes send JSON, which a cross-site
// HTML form cannot, and the browser adds the Origin header the server's
// same-origin check reads. Errors come back as ApiError with the API's
// {"error":{"code","message"}} body.
import type {
  ApiKeyMeta,
  Bot,
  BotCheckMessage,
  BotStrikePage,
  BotVersionList,
  Challenge,
  LeaderboardRow,
  Match,
  MatchStatus,
  MatchSummary,
  OpponentPage,
  Scope,
  User,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
} from '../protocol/index';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  /** Public data (matches, leaderboard) may use the HTTP cache; everything else is no-store. */
  publicData?: boolean;
  signal?: AbortSignal;
}

function errorFromBody(status: number, text: string): ApiError {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    const e = parsed?.error;
    if (e && typeof e.code === 'string' && typeof e.message === 'string')
      return new ApiError(status, e.code, e.message);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(status, `http_${status}`, text.trim().slice(0, 300) || `the server answered HTTP ${status}`);
}

export async function api<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      cache: opts.publicData && method === 'GET' ? 'default' : 'no-store',
      redirect: 'error',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(
      0,
      'network',
      `Could not reach the server (${(err as Error).message}). Check your connection and try again.`,
    );
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (!res.ok) throw errorFromBody(res.status, text);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.status, 'bad_response', `${method} ${path} answered something that is not JSON`);
  }
}

/** GET /me, or null when nobody is signed in. */
export async function getMe(signal?: AbortSignal): Promise<User | null> {
  try {
    return await api<User>('GET', '/me', { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export const setHandle = (handle: string) => api<User>('POST', '/me/handle', { body: { handle } });
export const requestSignIn = (email: string) => api<unknown>('POST', '/auth/email', { body: { email } });
export const signOut = () => api<unknown>('POST', '/auth/logout');

export const listKeys = (signal?: AbortSignal) => api<{ keys: ApiKeyMeta[] }>('GET', '/keys', { signal });
export const addKey = (body: { name: string; publicKey: string; scopes: Scope[] }) =>
  api<ApiKeyMeta>('POST', '/keys', { body });
export const revokeKey = (id: string) => api<ApiKeyMeta>('POST', `/keys/${encodeURIComponent(id)}/revoke`);

export const listBots = (signal?: AbortSignal) => api<{ bots: Bot[] }>('GET', '/bots?game=pioneers', { signal });
export const registerBot = (body: { name: string; url: string }) =>
  api<Bot>('POST', '/bots', { body: { ...body, game: 'pioneers' } });
export const updateBot = (id: string, body: { name?: string; url?: string; challengeable?: boolean }) =>
  api<Bot>('PATCH', `/bots/${encodeURIComponent(id)}`, { body });
export const pauseBot = (id: string) => api<Bot>('POST', `/bots/${encodeURIComponent(id)}/pause`);
export const resumeBot = (id: string) => api<Bot>('POST', `/bots/${encodeURIComponent(id)}/resume`);
export const removeBot = (id: string) => api<void>('DELETE', `/bots/${encodeURIComponent(id)}`);
/** The owner's strike log of the bot (403 or 404 for anyone else). */
export const createChallenge = (botId: string, opponents: string[]) =>
  api<Challenge>('POST', '/challenges', { body: { botId, opponents } });
export const listChallenges = (signal?: AbortSignal) =>
  api<{ challenges: Challenge[] }>('GET', '/challenges?limit=20', { signal });

export const listWebhooks = (signal?: AbortSignal) => api<{ webhooks: Webhook[] }>('GET', '/webhooks', { signal });
export const addWebhook = (body: { url: string; events: WebhookEvent[] }) =>
  api<Webhook>('POST', '/webhooks', { body });
export const removeWebhook = (id: string) => api<void>('DELETE', `/webhooks/${encodeURIComponent(id)}`);
export const listWebhookDeliveries = (id: string, signal?: AbortSignal) =>
  api<{ deliveries: WebhookDelivery[] }>('GET', `/webhooks/${encodeURIComponent(id)}/deliveries`, { signal });

export const getBot = (id: string, signal?: AbortSignal) =>
  api<Bot>('GET', `/bots/${encodeURIComponent(id)}`, { signal });
export const listBotVersions = (id: string, signal?: AbortSignal) =>
  api<BotVersionList>('GET', `/bots/${encodeURIComponent(id)}/versions`, { signal });
export const requalifyBot = (id: string) => api<Bot>('POST', `/bots/${encodeURIComponent(id)}/requalify`);
export const listBotStrikes = (id: string, signal?: AbortSignal) =>
  api<BotStrikePage>('GET', `/bots/${encodeURIComponent(id)}/strikes?limit=50`, { signal });

export const getLeaderboard = (signal?: AbortSignal) =>
  api<{ game: 'pioneers'; rows: LeaderboardRow[] }>('GET', '/leaderboard?game=pioneers', { publicData: true, signal });

export interface MatchQuery {
  status?: MatchStatus;
  botId?: string;
  limit?: number;
  cursor?: string;
}
export function listMatches(q: MatchQuery, signal?: AbortSignal) {
  const p = new URLSearchParams({ game: 'pioneers' });
  if (q.status) p.set('status', q.status);
  if (q.botId) p.set('botId', q.botId);
  if (q.limit) p.set('limit', String(q.limit));
  if (q.cursor) p.set('cursor', q.cursor);
  // Match lists change every tick: always ask the server.
  return api<{ matches: MatchSummary[]; next: string | null }>('GET', `/matches?${p}`, { signal });
}
export type OpponentSort = 'games' | 'above' | 'name';
/** GET /bots/{id}/opponents: head-to-head, public; changes with each match, so always asked. */
export function listOpponents(
  botId: string,
  q: { sort: OpponentSort; order: 'asc' | 'desc'; limit: number },
  signal?: AbortSignal,
) {
  const p = new URLSearchParams({ game: 'pioneers', sort: q.sort, order: q.order, limit: String(q.limit) });
  return api<OpponentPage>('GET', `/bots/${encodeURIComponent(botId)}/opponents?${p}`, { signal });
}
// Public, and cache mode `default` so the page can use the response its HTML preloaded (dashboard.ts).
export const getMatch = (id: string, signal?: AbortSignal) =>
  api<Match>('GET', `/matches/${encodeURIComponent(id)}`, { publicData: true, signal });
export const liveUrl = (id: string) => `/matches/${encodeURIComponent(id)}/live`;

/** A message for a person: the API's own message, which names the field or the reason. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * POST /bots/check: the registration checks on a URL, each step handed to
 * onMessage as the server reports it. Resolves with the last message (passed
 * or failed); throws ApiError when the request itself is refused.
 */
export async function checkBotUrl(url: string, onMessage: (m: BotCheckMessage) => void): Promise<BotCheckMessage> {
  let res: Response;
  try {
    res = await fetch('/bots/check', {
      method: 'POST',
      headers: { accept: 'application/x-ndjson', 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
    });
  } catch (err) {
    throw new ApiError(
      0,
      'network',
      `Could not reach the server (${(err as Error).message}). Check your connection and try again.`,
    );
  }
  if (!res.ok || !res.body) throw errorFromBody(res.status, await res.text());
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let last: BotCheckMessage | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (!line) continue;
      last = JSON.parse(line) as BotCheckMessage;
      onMessage(last);
    }
    if (done) break;
  }
  if (last === null || (last.type !== 'passed' && last.type !== 'failed')) {
    throw new ApiError(
      res.status,
      'bad_response',
      'the check stream ended before saying how the checks went; try again',
    );
  }
  return last;
}
