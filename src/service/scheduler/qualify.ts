// Qualification: before a bot is rated, each version of it plays one unrated
// match against the server's built-in bots (in this process, no sockets for
// them). At most 1 strike and no resignation pass (`active`); anything else
// fails (`failed`, with the match id and the strikes' reasons for its owner).
// The scheduler's tick calls tick() with the bots it has busy; with
// qualification off, bots still waiting for a qualifier are let in unplayed.
import type { KeyObject } from 'node:crypto';
import { BUILTIN_BOTS, type BuiltinBotName } from '../../../engine/bots/names';
import { newTournamentSeed } from '../../arena/seeds';
import type { MatchRecord } from '../../protocol/index';
import { runMatch, withoutNotes, type MatchEntrant, type MatchResult } from '../../runner/index';
import { GAME, runningRecord, type MatchHub } from './match-player';
import type { OwnerEventSink } from '../owner-events';
import { currentVersion } from '../store/bot-versions';
import { newId } from '../store/ids';
import type { BotRecord, QualificationOutcome, Store } from '../store/types';
import { ownerDataOf, strikeDetail } from './owner-data';
import { retryWhileUnavailable } from './store-retry';
import { versionGate } from './version-gate';

/** serve --qualify-opponents' default: a fair player and a random one, both quick. */
export const DEFAULT_QUALIFY_OPPONENTS: readonly BuiltinBotName[] = ['greedy', 'random'];
/** Qualifiers running at once, at most; the rest wait for a later tick (each plays built-ins on this process's CPU). */
export const MAX_QUALIFIERS = 8;
/** At most this many strikes, and no resignation, pass a qualifier. */
export const QUALIFY_MAX_STRIKES = 1;

/**
 * Parses serve --qualify-opponents: 2 or 3 comma-separated built-ins (`builtin:NAME` or NAME),
 * so a qualifier has 3 or 4 seats. Throws a RangeError that says what is wrong.
 */
export function parseQualifyOpponents(text: string): BuiltinBotName[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith('builtin:') ? s.slice('builtin:'.length) : s));
  for (const n of names) {
    if (!(BUILTIN_BOTS as readonly string[]).includes(n))
      throw new RangeError(
        `unknown built-in bot "${n}"; choose from ${BUILTIN_BOTS.map((b) => `builtin:${b}`).join(', ')}`,
      );
  }
  if (names.length < 2 || names.length > 3)
    throw new RangeError(`give 2 or 3 built-in bots (a qualifier has 3 or 4 seats), got ${names.length}`);
  return names as BuiltinBotName[];
}

export interface QualifierOptions {
  store: Store;
  hub: MatchHub;
  platformKey: KeyObject;
  gate?: (url: string) => Promise<{ address: string; family: 4 | 6 } | void>;
  /** false: bots waiting for a qualifier are let in unplayed (serve --qualify off). */
  enabled: boolean;
  opponents?: readonly BuiltinBotName[];
  matchTimeoutMs: number;
  deadlineMs?: number;
  timeBankMs?: number;
  log: (fields: Record<string, unknown>) => void;
  onOwnerEvent?: OwnerEventSink;
  newSeed?: () => string;
  newMatchId?: () => string;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/** Why a qualifier failed, in words, or null when it passed. */
export function failureReason(result: MatchResult | null, botId: string): string | null {
  if (result?.match.status !== 'completed')
    return 'the qualifier did not finish (aborted: the wall clock ran out or the match failed)';
  const seat = result.seats.find((s) => s.botId === botId);
  if (!seat) return 'the bot was not seated';
  if (seat.resigned) return `resigned after ${seat.strikeLog.length} strikes`;
  if (seat.strikeLog.length > QUALIFY_MAX_STRIKES)
    return `${seat.strikeLog.length} strikes (at most ${QUALIFY_MAX_STRIKES} pass)`;
  return null;
}

export class Qualifier {
  /** By bot id. */
  private readonly running = new Map<string, Running>();

  constructor(private readonly opts: QualifierOptions) {}

  /** The bots playing a qualifier now (the scheduler seats none of them). */
  get busyBots(): string[] {
    return [...this.running.keys()];
  }

  get runningCount(): number {
    return this.running.size;
  }

  /**
   * Starts a qualifier for each waiting bot not in `busy` (or lets them in, when off); returns the match ids started.
   */
  async tick(busy: ReadonlySet<string>, stopping: boolean): Promise<string[]> {
    let waiting: BotRecord[];
    try {
      waiting = await this.opts.store.listQualifyingBots(GAME);
    } catch (err) {
      this.opts.log({ event: 'tick.error', error: String(err) });
      return [];
    }
    waiting = waiting.filter((b) => !busy.has(b.id) && !this.running.has(b.id));
    if (!this.opts.enabled) {
      for (const b of waiting)
        await this.finish(b, { state: 'skipped', matchId: null, strikes: [], resigned: false, reason: null });
      return [];
    }
    if (stopping) return [];
    const started: string[] = [];
    for (const bot of waiting.slice(0, Math.max(0, MAX_QUALIFIERS - this.running.size))) {
      const matchId = this.opts.newMatchId ? this.opts.newMatchId() : newId('m');
      const controller = new AbortController();
      const run: Running = { controller, done: Promise.resolve() };
      this.running.set(bot.id, run);
      run.done = this.play(bot, matchId, controller.signal)
        .catch((err) =>
          this.opts.log({
            event: 'qualify.error',
            botId: bot.id,
            matchId,
            error: err instanceof Error ? err.message : String(err),
          }),
        )
        .finally(() => this.running.delete(bot.id));
      started.push(matchId);
    }
    return started;
  }

  /**
   * Aborts running qualifiers and waits until each is recorded; their bots stay qualifying (played again after a
   * restart).
   */
  async stop(): Promise<void> {
    for (const r of this.running.values()) r.controller.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private entrants(bot: BotRecord): MatchEntrant[] {
    const opponents = this.opts.opponents ?? DEFAULT_QUALIFY_OPPONENTS;
    return [
      { botId: bot.id, botName: bot.name, source: { type: 'ws', url: bot.url } },
      // The same built-in twice gets two ids: a seat's id names one seat.
      ...opponents.map(
        (name, i): MatchEntrant => ({
          botId: opponents.indexOf(name) === i ? `builtin:${name}` : `builtin:${name}:${i + 1}`,
          botName: `${name} (built-in)`,
          source: { type: 'builtin', bot: name },
        }),
      ),
    ];
  }

  private async play(bot: BotRecord, matchId: string, signal: AbortSignal): Promise<void> {
    const { store, hub, log } = this.opts;
    const version = currentVersion(bot);
    const seed = (this.opts.newSeed ?? newTournamentSeed)();
    const entrants = this.entrants(bot);
    const running = runningRecord(
      matchId,
      seed,
      entrants.map((e) => ({ botId: e.botId, botName: e.botName, ...(e.botId === bot.id ? { version } : {}) })),
      { rated: false, qualification: true },
    );
    const { players, startedAt } = running;
    const channel = hub.open({ id: matchId, game: GAME, status: 'running', players, startedAt });
    try {
      await store.putMatch(running);
    } catch (err) {
      hub.close(matchId, { status: 'aborted', players, endedAt: new Date().toISOString() });
      throw err;
    }
    log({ event: 'qualify.start', matchId, botId: bot.id, version });
    let result: MatchResult | null = null;
    let batch: MatchRecord['replay'] = [];
    try {
      result = await runMatch({
        matchId,
        seed,
        entrants,
        platformKey: this.opts.platformKey,
        deadlineMs: this.opts.deadlineMs,
        timeBankMs: this.opts.timeBankMs,
        wallClockMs: this.opts.matchTimeoutMs,
        signal,
        gate: versionGate(store, [bot], this.opts.gate),
        onEvent: (ev) => batch.push(ev),
        onFlush: (view) => {
          const events = batch;
          batch = [];
          channel.publish(events, view);
        },
      });
    } catch (err) {
      log({ event: 'qualify.error', matchId, botId: bot.id, error: err instanceof Error ? err.message : String(err) });
    }
    const endedAt = new Date().toISOString();
    const withVersion = (m: MatchRecord): MatchRecord => ({
      ...m,
      rated: false,
      qualification: true,
      players: m.players.map((p) => (p.botId === bot.id ? { ...p, version } : p)),
    });
    let record: MatchRecord;
    if (result && result.match.status === 'completed') {
      record = withVersion({
        ...withoutNotes(result.match),
        players: result.match.players.map((p) => ({ ...p, ratingDelta: null })),
      });
      await retryWhileUnavailable(
        () => store.completeMatch(record, []),
        async () => ((await store.getMatch(matchId))?.status === 'completed' ? undefined : null),
      );
    } else {
      record = result
        ? withVersion({
            ...withoutNotes(result.match),
            status: 'aborted',
            players: result.match.players.map((p) => ({ ...p, placement: null, ratingDelta: null })),
          })
        : { ...running, status: 'aborted', endedAt };
      await retryWhileUnavailable(
        () => store.putMatch(record),
        async () => ((await store.getMatch(matchId))?.status === 'aborted' ? undefined : null),
      );
    }
    hub.close(matchId, {
      status: record.status === 'completed' ? 'completed' : 'aborted',
      players: record.players,
      endedAt: record.endedAt ?? endedAt,
    });
    // The owner's strike log gets the qualifier's strikes, with what the bot sent.
    const own = result ? ownerDataOf(result, record.endedAt ?? endedAt).get(bot.id) : undefined;
    if (own)
      await store
        .putOwnerMatchData(matchId, bot.id, own)
        .catch((err: unknown) =>
          log({ event: 'qualify.error', matchId, error: `cannot keep the bot's private match data: ${String(err)}` }),
        );
    // Stopped by the server: not the bot's doing; it stays qualifying and plays again.
    if (signal.aborted) {
      log({ event: 'qualify.abort', matchId, botId: bot.id, reason: 'server stopping' });
      return;
    }
    const seat = result?.seats.find((s) => s.botId === bot.id);
    const reason = failureReason(result, bot.id);
    await this.finish(bot, {
      state: reason === null ? 'passed' : 'failed',
      matchId,
      strikes: (seat?.strikeLog ?? [])
        .map(strikeDetail)
        .map((s) => ({ reason: s.reason, ...(s.code !== undefined ? { code: s.code } : {}), message: s.message })),
      resigned: seat?.resigned ?? false,
      reason,
    });
  }

  private async finish(bot: BotRecord, outcome: QualificationOutcome): Promise<void> {
    const version = currentVersion(bot);
    let done: BotRecord | null;
    try {
      done = await this.opts.store.finishQualification(bot.id, version, outcome);
    } catch (err) {
      this.opts.log({
        event: 'qualify.error',
        botId: bot.id,
        error: `cannot record the qualification: ${err instanceof Error ? err.message : String(err)}`,
      });
      return;
    }
    // Null: the bot changed (a new version, removed) meanwhile; its newer state stands.
    if (!done) return;
    this.opts.log({
      event: `qualify.${outcome.state}`,
      botId: bot.id,
      version,
      ...(outcome.matchId ? { matchId: outcome.matchId } : {}),
      ...(outcome.reason ? { reason: outcome.reason } : {}),
    });
    if (outcome.state === 'skipped') return;
    try {
      this.opts.onOwnerEvent?.({
        type: outcome.state === 'passed' ? 'bot.qualified' : 'bot.failed',
        ownerId: bot.ownerId,
        botId: bot.id,
        ...(outcome.matchId ? { matchId: outcome.matchId } : {}),
        data: { version, strikes: outcome.strikes, resigned: outcome.resigned, reason: outcome.reason },
      });
    } catch {
      // A sink must not throw; if one does, the qualification stands all the same.
    }
  }
}
