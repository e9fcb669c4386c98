// What an owner does with their account, keys and bots, as library calls over
// the signed API (paths and envelopes from docs/decisions.md, "Service API").
// The CLI's `arena me`, `arena keys add|list|revoke` and `arena bots` are thin
// layers over these.
import {
  ApiKeyMetaSchema,
  BotListSchema,
  BotSchema,
  BotVersionListSchema,
  KeyListSchema,
  UserSchema,
  type ApiKeyMeta,
  type Bot,
  type BotVersionList,
  type Scope,
  type User,
} from '../protocol/api';
import { BotStrikePageSchema, MatchNotesSchema, type BotStrikePage, type MatchNotes } from '../protocol/owner';
import { ChallengeListSchema, ChallengeSchema, type Challenge } from '../protocol/challenge';
import { callJson, callRaw, type ApiTarget } from './api';
import { ClientError } from './errors';

/**
 * An id as one path segment. "." and ".." would be read as dot segments (even encoded) and move the request elsewhere.
 */
function seg(id: string): string {
  if (id === '' || id === '.' || id === '..')
    throw new BotLookupError(`"${id}" is not an id (ids look like b_... for bots and k_... for keys)`);
  return encodeURIComponent(id);
}

export function getMe(t: ApiTarget): Promise<User> {
  return callJson(t, 'GET', '/me', UserSchema);
}

export function setHandle(t: ApiTarget, handle: string): Promise<User> {
  return callJson(t, 'POST', '/me/handle', UserSchema, { handle });
}

export async function listKeys(t: ApiTarget): Promise<ApiKeyMeta[]> {
  return (await callJson(t, 'GET', '/keys', KeyListSchema)).keys;
}

export function addKey(
  t: ApiTarget,
  input: { name: string; publicKey: string; scopes?: Scope[] },
): Promise<ApiKeyMeta> {
  return callJson(t, 'POST', '/keys', ApiKeyMetaSchema, input);
}

export function revokeKey(t: ApiTarget, id: string): Promise<ApiKeyMeta> {
  return callJson(t, 'POST', `/keys/${seg(id)}/revoke`, ApiKeyMetaSchema);
}

export function registerBot(t: ApiTarget, input: { name: string; url: string; game?: 'pioneers' }): Promise<Bot> {
  return callJson(t, 'POST', '/bots', BotSchema, { name: input.name, game: input.game ?? 'pioneers', url: input.url });
}

export async function listBots(t: ApiTarget, game?: 'pioneers'): Promise<Bot[]> {
  return (await callJson(t, 'GET', game ? `/bots?game=${game}` : '/bots', BotListSchema)).bots;
}

export function getBot(t: ApiTarget, id: string): Promise<Bot> {
  return callJson(t, 'GET', `/bots/${seg(id)}`, BotSchema);
}

/** A changed url, or newVersion, starts a new version of the bot (and, where qualification is on, a new qualifier). */
export function updateBot(
  t: ApiTarget,
  id: string,
  patch: { name?: string; url?: string; challengeable?: boolean; newVersion?: true },
): Promise<Bot> {
  return callJson(t, 'PATCH', `/bots/${seg(id)}`, BotSchema, patch);
}

/** Plays the bot's qualifier again (rate-limited per account). */
export function requalifyBot(t: ApiTarget, id: string): Promise<Bot> {
  return callJson(t, 'POST', `/bots/${seg(id)}/requalify`, BotSchema);
}

/** Each version of the bot, oldest first: rated games, the rating at its end, dates. */
export function listBotVersions(t: ApiTarget, id: string): Promise<BotVersionList> {
  return callJson(t, 'GET', `/bots/${seg(id)}/versions`, BotVersionListSchema);
}

export function pauseBot(t: ApiTarget, id: string): Promise<Bot> {
  return callJson(t, 'POST', `/bots/${seg(id)}/pause`, BotSchema);
}

export function resumeBot(t: ApiTarget, id: string): Promise<Bot> {
  return callJson(t, 'POST', `/bots/${seg(id)}/resume`, BotSchema);
}

/** Challenges bots (ids) to one unrated match with one of the caller's bots; pending until the scheduler plays it. */
export function createChallenge(t: ApiTarget, botId: string, opponents: string[]): Promise<Challenge> {
  return callJson(t, 'POST', '/challenges', ChallengeSchema, { botId, opponents });
}

/** The caller's challenges, newest first. */
export async function listChallenges(t: ApiTarget, limit?: number): Promise<Challenge[]> {
  return (
    await callJson(t, 'GET', limit !== undefined ? `/challenges?limit=${limit}` : '/challenges', ChallengeListSchema)
  ).challenges;
}

/** DELETE answers 204 with no body. */
export async function removeBot(t: ApiTarget, id: string): Promise<void> {
  await callRaw(t, 'DELETE', `/bots/${seg(id)}`);
}

/** One page of the bot's strike log, newest first (the owner's only). */
export function listBotStrikes(
  t: ApiTarget,
  id: string,
  page: { limit?: number; cursor?: string | null } = {},
): Promise<BotStrikePage> {
  const q = new URLSearchParams();
  if (page.limit !== undefined) q.set('limit', String(page.limit));
  if (page.cursor) q.set('cursor', page.cursor);
  const qs = q.toString();
  return callJson(t, 'GET', `/bots/${seg(id)}/strikes${qs ? `?${qs}` : ''}`, BotStrikePageSchema);
}

/** The bot's notes and strikes in one finished match (the owner's only). */
export function getMatchNotes(t: ApiTarget, botId: string, matchId: string): Promise<MatchNotes> {
  return callJson(t, 'GET', `/bots/${seg(botId)}/matches/${seg(matchId)}/notes`, MatchNotesSchema);
}

/**
 * The id of a bot named by id or by name (names are what owners remember). A
 * name shared by several of the owner's bots is refused; anything that is no
 * id or name of theirs is passed on as an id, so the server answers for it
 * (404, or 403 for someone else's bot).
 */
export async function resolveBotId(t: ApiTarget, idOrName: string): Promise<string> {
  return (await resolveBotIds(t, [idOrName]))[0];
}

/** resolveBotId for several references with one listing (one request, not one each). */
export async function resolveBotIds(t: ApiTarget, refs: string[]): Promise<string[]> {
  const bots = await listBots(t);
  return refs.map((ref) => idOf(bots, ref));
}

function idOf(bots: Bot[], idOrName: string): string {
  if (bots.some((b) => b.id === idOrName)) return idOrName;
  const byName = bots.filter((b) => b.name === idOrName);
  if (byName.length > 1)
    throw new BotLookupError(
      `${byName.length} of your bots are named "${idOrName}"; give the id (${byName.map((b) => b.id).join(', ')})`,
    );
  return byName[0]?.id ?? idOrName;
}

/**
 * A bot or key reference the client can answer for itself (an ambiguous name, a dot segment); a ClientError, so the CLI
 * says it in one line.
 */
export class BotLookupError extends ClientError {
  constructor(message: string) {
    super(message);
    this.name = 'BotLookupError';
  }
}
