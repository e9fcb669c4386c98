// The service's storage contract. Routes and the scheduler talk to this
// interface only; the file store (a JSON snapshot and journal, one file per match) implements it,
// and a contract suite in test/service/store/store-contract.ts runs against any
// implementation (a PostgreSQL one later).
import type {
  ApiKeyMeta,
  Bot,
  BotStrikePage,
  Challenge,
  DecisionNote,
  MatchRecord,
  Qualification,
  StrikeDetail,
  User,
  Webhook,
  WebhookDelivery,
} from '../../protocol';

export interface UserRecord extends User {
  createdAt: string;
}

/** An API key as stored: the public metadata plus its owner. */
export interface KeyRecord extends ApiKeyMeta {
  userId: string;
}

/**
 * A bot as stored. Removed bots stay (old match records name them) but are hidden from their owner's lists.
 * `version`, `versions` and `qualification` are absent from bots stored before they existed: read them
 * through bot-versions.ts (version 1 from createdAt, no qualification: those bots stay active).
 * `challengeable` is stored only when false (absent means true), like a match's `rated`.
 */
export interface BotRecord extends Omit<Bot, 'challengeable'> {
  removedAt: string | null;
  challengeable?: false;
  /** Every version, oldest first, the current one last (endedAt null). */
  versions?: BotVersionRecord[];
}

/** One version of a bot: from a URL change (or a new version asked for) to the next. */
export interface BotVersionRecord {
  version: number;
  startedAt: string;
  endedAt: string | null;
  /** The bot's rated games before this version started (the rating's gamesPlayed then). */
  gamesAtStart: number;
  /**
   * The rating when the next version started (before its sigma was widened); null while current or when it had none.
   */
  end: { mu: number; sigma: number; gamesPlayed: number } | null;
}

/** How a qualifier ended, for Store.finishQualification. */
export interface QualificationOutcome {
  state: 'passed' | 'failed' | 'skipped';
  matchId: string | null;
  strikes: Qualification['strikes'];
  resigned: boolean;
  reason: string | null;
}

/** A challenge as stored: the API's Challenge plus the account that made it. */
export interface ChallengeRecord extends Challenge {
  ownerId: string;
}

/** How a pending challenge ended: played (its match started), or expired or refused with a reason. */
export type ChallengeOutcome =
  | { status: 'played'; matchId: string }
  | { status: 'expired' | 'refused'; reason: string };

/** The per-account bounds addChallenge checks and applies in one step. */
export interface ChallengeLimits {
  /** Pending (and not yet past expiresAt) challenges the account may have at once. */
  maxPending: number;
  /** Challenges the account may have made in the 24 hours before now. */
  maxPerDay: number;
}

/** What updateBot may change: never the owner. */
export type BotPatch = Partial<Pick<BotRecord, 'name' | 'url'>> & {
  status?: 'active' | 'paused';
  challengeable?: boolean;
};

/** Weng-Lin rating of one bot in one game. */
export interface RatingRecord {
  botId: string;
  game: 'pioneers';
  mu: number;
  sigma: number;
  gamesPlayed: number;
}

/** A dashboard session; only a hash of the cookie's token is stored. */
export interface SessionRecord {
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

/** A single-use e-mail sign-in link; only a hash of its token is stored. */
export interface SignInTokenRecord {
  tokenHash: string;
  email: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** A match as stored: the arena's record (players name the bots seated). */
export type StoredMatch = MatchRecord;

/**
 * A stored match without its seed and replay: what a page of a listing carries (the API's MatchSummary plus record
 * fields).
 */
export type StoredMatchSummary = Omit<StoredMatch, 'seed' | 'replay' | 'decisions'>;

export interface MatchQuery {
  game?: 'pioneers';
  status?: MatchRecord['status'];
  botId?: string;
  /** Only matches this bot also played (with botId: matches both played). */
  vs?: string;
  /** 1..100 */
  limit: number;
  /** Opaque, from a previous page's `next`. */
  cursor?: string | null;
}

export interface MatchPage {
  matches: StoredMatch[];
  next: string | null;
}

export interface MatchSummaryPage {
  matches: StoredMatchSummary[];
  next: string | null;
}

/**
 * One opponent of a bot over its completed matches (rated or not; aborted ones
 * have no placements): games together, how often the bot placed strictly
 * above it (ties count for neither), and each side's mean placement there.
 */
export interface HeadToHeadRow {
  opponentId: string;
  games: number;
  above: number;
  meanPlacement: number;
  opponentMeanPlacement: number;
}

/**
 * What one seated bot's owner alone may see of a finished match, kept apart
 * from the public record (which has no notes and no struck answers).
 */
export interface OwnerMatchData {
  /** When the match ended (its record's endedAt): the strike log's time. */
  endedAt: string;
  /** The bot's decisions that carried a `debug` note, in order. */
  notes: DecisionNote[];
  /** The bot's strikes, in order, with the first bytes of what it sent. */
  strikes: StrikeDetail[];
}

export interface StrikeQuery {
  /** 1..100 */
  limit: number;
  /** Opaque, from a previous page's `next`. */
  cursor?: string | null;
}

/** A webhook as stored: the API's shape plus its owner. */
export interface WebhookRecord extends Webhook {
  ownerId: string;
}

/** One delivery as stored: the API's shape plus its owner (deliveries go when their webhook does). */
export interface WebhookDeliveryRecord extends WebhookDelivery {
  ownerId: string;
}

/** What an attempt changes of a delivery. */
export type WebhookDeliveryPatch = Pick<
  WebhookDelivery,
  'status' | 'attempts' | 'lastAttemptAt' | 'nextAttemptAt' | 'responseStatus' | 'error'
>;

/** Thrown by the store when a uniqueness rule (handle, e-mail, ids) would break. */
export class StoreConflict extends Error {
  constructor(
    readonly what: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreConflict';
  }
}

/** Thrown when a method names a record that does not exist (or, for updateBot, was removed). */
export class StoreNotFound extends Error {
  constructor(
    readonly what: 'user' | 'key' | 'bot' | 'match' | 'challenge',
    readonly id: string,
  ) {
    super(`no ${what} ${id}`);
    this.name = 'StoreNotFound';
  }
}

/** Thrown by listMatches for a cursor that no page ever returned (a 400 for the API). */
export class InvalidCursor extends Error {
  constructor(readonly cursor: string) {
    super('cursor is not one a previous page returned');
    this.name = 'InvalidCursor';
  }
}

/**
 * Thrown when the store's database cannot be reached now: the API answers 503 with Retry-After; retrying later may
 * work.
 */
export class StoreUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
    this.name = 'StoreUnavailable';
  }
}

/** Thrown when the data directory is held by another process. */
export class StoreLocked extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number | null,
  ) {
    super(
      `the data directory ${dir} is in use by another arena process${pid ? ` (pid ${pid})` : ''}; stop it first, or use another --data`,
    );
    this.name = 'StoreLocked';
  }
}

/**
 * Every method is atomic and durable when its promise resolves (a 2xx may be
 * sent after it), except touchKey, which may be batched. A method that throws
 * changed nothing. Records returned are copies: changing them changes nothing.
 */
export interface Store {
  // Users
  /**
   * Throws StoreConflict('email') for an e-mail already used (compared case-insensitively), StoreConflict('handle') for
   * a taken name.
   */
  createUser(input: { email: string; name?: string }): Promise<UserRecord>;
  getUser(id: string): Promise<UserRecord | null>;
  /** Case-insensitive. */
  getUserByEmail(email: string): Promise<UserRecord | null>;
  /** Throws StoreConflict('handle') when another user has it, StoreNotFound('user'). */
  setHandle(userId: string, handle: string): Promise<UserRecord>;
  /** Oldest first. */
  listUsers(): Promise<UserRecord[]>;

  // API keys
  /**
   * Throws StoreNotFound('user') for an unknown userId, StoreConflict('public_key') when another account holds a key
   * (revoked or not) with the same publicKey (check and add are one atomic step). The same account may repeat one.
   */
  addKey(input: Omit<KeyRecord, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>): Promise<KeyRecord>;
  /** lastUsedAt includes touches not yet flushed. */
  getKey(id: string): Promise<KeyRecord | null>;
  /** The user's keys, revoked ones included, oldest first. */
  listKeys(userId: string): Promise<KeyRecord[]>;
  /** Revoking twice keeps the first time. Throws StoreNotFound('key'). */
  revokeKey(id: string): Promise<KeyRecord>;
  /** Remembers the last use; may be flushed later (no write per request). */
  touchKey(id: string, at: string): void;

  // Bots
  /**
   * A new bot at version 1: `active`, or with `qualify` `qualifying` (a pending qualification).
   * Throws StoreNotFound('user') for an unknown owner.
   */
  addBot(input: Pick<BotRecord, 'ownerId' | 'name' | 'game' | 'url'> & { qualify?: boolean }): Promise<BotRecord>;
  /** Includes removed bots (records name them). */
  getBot(id: string): Promise<BotRecord | null>;
  /** The owner's bots that are not removed, oldest first. */
  listBots(ownerId: string, game?: 'pioneers'): Promise<BotRecord[]>;
  /**
   * Throws StoreNotFound('bot') for an unknown or removed bot. `status` takes `paused` (pause) or `active`
   * (resume): resuming returns the bot to what its qualification says (`active` when passed, skipped or
   * none; `qualifying`; `failed`), never past a qualifier it has not passed. A `url` here does not start
   * a version (startBotVersion does). `challengeable: true` clears the stored false.
   */
  updateBot(id: string, patch: BotPatch): Promise<BotRecord>;
  /**
   * One step: ends the current version (keeping its rating), starts the next (version + 1) with `url` if
   * given, widens the bot's rating's sigma (bot-versions.ts widenSigma), and with `qualify` makes its
   * qualification pending for the new version (status `qualifying` unless paused). Throws StoreNotFound('bot').
   */
  startBotVersion(id: string, input: { url?: string; qualify: boolean }): Promise<BotRecord>;
  /**
   * Makes the bot's qualification pending again for its current version (status `qualifying` unless
   * paused). Throws StoreNotFound('bot'), StoreConflict('qualifying') when it is pending already.
   */
  requalifyBot(id: string): Promise<BotRecord>;
  /**
   * Records how the qualifier of `version` ended, and sets the status (`active` or `failed`; a paused bot
   * stays paused). Null, changing nothing, when the bot is removed, has moved to another version, or its
   * qualification is not pending (a result that came too late).
   */
  finishQualification(id: string, version: number, outcome: QualificationOutcome): Promise<BotRecord | null>;
  /** Every `qualifying`, not removed bot of the game, oldest first. */
  listQualifyingBots(game: 'pioneers'): Promise<BotRecord[]>;
  /** Sets removedAt; removing twice keeps the first time. Throws StoreNotFound('bot') for an unknown bot. */
  removeBot(id: string): Promise<void>;
  /** Every `active`, not removed bot of the game (the scheduler's pool). */
  listActiveBots(game: 'pioneers'): Promise<BotRecord[]>;

  // Challenges
  /**
   * A new pending challenge made now (the store's clock), expiring `ttlMs` later. In one atomic step
   * with the add, refuses with StoreConflict('pending_challenges') when the owner already has
   * limits.maxPending pending, unexpired ones, or StoreConflict('daily_challenges') when they made
   * limits.maxPerDay in the last 24 hours. Throws StoreNotFound('user') for an unknown owner.
   * The caller checks the bots (the store does not).
   */
  addChallenge(
    input: Pick<ChallengeRecord, 'ownerId' | 'botId' | 'opponents'>,
    ttlMs: number,
    limits: ChallengeLimits,
  ): Promise<ChallengeRecord>;
  /** The owner's challenges, newest first, at most `limit` (1..100; RangeError outside). */
  listChallenges(ownerId: string, limit: number): Promise<ChallengeRecord[]>;
  /**
   * Every pending challenge of any owner, oldest first (the scheduler's queue; expired ones included until settled).
   */
  listPendingChallenges(): Promise<ChallengeRecord[]>;
  /**
   * Ends a pending challenge (endedAt = now). Null when it is no longer pending (another settle won):
   * a challenge ends once. Throws StoreNotFound('challenge') for an unknown id.
   */
  settleChallenge(id: string, outcome: ChallengeOutcome): Promise<ChallengeRecord | null>;

  // Sessions and sign-in links
  /**
   * Throws StoreConflict('token') for a hash already stored. Expired links and sessions are pruned on later writes.
   * With `maxOpen`: when the address already has that many links unused and unexpired at rec.createdAt, the oldest
   * of them (by createdAt) are invalidated so that the new one is stored and at most maxOpen stay open, all in one
   * atomic step; `replaced` counts the links invalidated. A request never fails for a full address: whoever asks
   * for a stranger's link cannot spend that person's allowance (the mail rates bound how often it can happen).
   */
  addSignInToken(rec: SignInTokenRecord, maxOpen?: number): Promise<{ added: true; replaced: number }>;
  /** The link, or null when unknown, used or expired at `now`; changes nothing (the confirm page reads it). */
  getSignInToken(tokenHash: string, now: string): Promise<SignInTokenRecord | null>;
  /** Marks it used and returns it, or null when unknown, used or expired. Single use. */
  consumeSignInToken(tokenHash: string, now: string): Promise<SignInTokenRecord | null>;
  /** Throws StoreConflict('session') for a hash already stored. */
  addSession(rec: SessionRecord): Promise<void>;
  /** With `now`, an expired session is null. */
  getSession(tokenHash: string, now?: string): Promise<SessionRecord | null>;
  deleteSession(tokenHash: string): Promise<void>;

  // Ratings and matches
  getRating(botId: string, game: 'pioneers'): Promise<RatingRecord | null>;
  listRatings(game: 'pioneers'): Promise<RatingRecord[]>;
  /**
   * Stores a new or updated match (running, or aborted). A completed or
   * aborted match is final: writing it again throws StoreConflict('match').
   */
  putMatch(match: StoredMatch): Promise<void>;
  /**
   * The completed match and its seats' new ratings (after-values), in one
   * atomic step. Throws StoreConflict('match') if the match is already final.
   */
  completeMatch(match: StoredMatch, ratings: RatingRecord[]): Promise<void>;
  /** Any string is safe to pass (an id from a URL): unknown ones are null. */
  getMatch(id: string): Promise<StoredMatch | null>;
  /**
   * Newest first (the order matches were first stored); a match stored after
   * a page was read never shifts later pages (no gaps, no repeats). Full
   * records: reads one match file per row. Throws InvalidCursor, or
   * RangeError for a limit outside 1..100.
   */
  listMatches(query: MatchQuery): Promise<MatchPage>;
  /** The same rows and cursors as listMatches, without seed and replay: cheap, for API pages. */
  listMatchSummaries(query: MatchQuery): Promise<MatchSummaryPage>;
  /**
   * Every opponent `botId` met in its completed matches of the game, any order
   * (the route sorts and pages). One aggregate over the bot's matches: no
   * match file or replay is read.
   */
  headToHead(botId: string, game: 'pioneers'): Promise<HeadToHeadRow[]>;

  // The owners' private match data (one record per finished match and seated bot)
  /**
   * Keeps a finished match's private part for one of its seated bots, and adds its strikes to
   * the bot's strike log. First write wins: a repeat for the same match and bot changes nothing
   * (a retried write is safe). Throws StoreNotFound('match') for a match not stored, TypeError
   * for a bot not seated in it.
   */
  putOwnerMatchData(matchId: string, botId: string, data: OwnerMatchData): Promise<void>;
  /** Null when none was kept (unknown ids, a bot not seated, a match still running or stored before this existed). */
  getOwnerMatchData(matchId: string, botId: string): Promise<OwnerMatchData | null>;
  /**
   * The bot's strike log, newest first (matches in the order their data was kept, a match's last
   * strike first); later writes never shift later pages. Throws InvalidCursor, or RangeError for
   * a limit outside 1..100.
   */
  listBotStrikes(botId: string, query: StrikeQuery): Promise<BotStrikePage>;

  // Webhooks (issue 29 item 5)
  /**
   * A new webhook. Throws StoreNotFound('user') for an unknown owner, StoreConflict('webhooks') when the
   * owner already has `max` (check and add are one atomic step).
   */
  addWebhook(input: Pick<WebhookRecord, 'ownerId' | 'url' | 'events'>, max: number): Promise<WebhookRecord>;
  /** Any string is safe to pass: unknown ones are null. */
  getWebhook(id: string): Promise<WebhookRecord | null>;
  /** The owner's webhooks, oldest first. */
  listWebhooks(ownerId: string): Promise<WebhookRecord[]>;
  /** Removes the webhook and its deliveries (pending ones are never tried again). Unknown ids change nothing. */
  removeWebhook(id: string): Promise<void>;
  /**
   * Keeps a new delivery of an existing webhook and drops that webhook's oldest past `keep` (pending or not).
   * A delivery for a webhook that is gone is not kept: resolves false.
   */
  addWebhookDelivery(rec: WebhookDeliveryRecord, keep: number): Promise<boolean>;
  /**
   * Records an attempt; false (and nothing changed) for a delivery no longer kept (dropped, or its webhook removed).
   */
  updateWebhookDelivery(id: string, patch: WebhookDeliveryPatch): Promise<boolean>;
  /** The webhook's deliveries, newest first. */
  listWebhookDeliveries(webhookId: string): Promise<WebhookDeliveryRecord[]>;
  /** Every pending delivery of every webhook, any order (the dispatcher's queue after a restart). */
  listPendingWebhookDeliveries(): Promise<WebhookDeliveryRecord[]>;

  /** A consistent copy of the whole store into an empty or new directory. */
  backup(dir: string): Promise<void>;
  /** Flushes pending touches and releases the lock. */
  close(): Promise<void>;
  /** A store with a database behind it: throws StoreUnavailable when it cannot be reached (for /health). */
  ping?(): Promise<void>;
  /**
   * Optional batch reads, for a store where each read is a round trip: the records of the ids that exist (removed bots
   * included), any order.
   */
  getBots?(ids: string[]): Promise<BotRecord[]>;
  getUsers?(ids: string[]): Promise<UserRecord[]>;
}
