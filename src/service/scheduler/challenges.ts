// Challenges at a tick (issue 29 item 4): before matchmaking forms its tables,
// each pending challenge, oldest first, is played if its bots are all idle,
// ended if it can no longer be played (a bot removed, paused or no longer
// accepting challenges: refused) or if it waited too long (expired), and
// otherwise left to wait. A challenge's table is unrated: it is for the
// owners' curiosity, and rating it would let an owner pick whom to be rated
// against.
import type { BuiltinBotName } from '../../../engine/bots/names';
import type { BotRecord, ChallengeOutcome, ChallengeRecord, Store } from '../store/types';

/** A table of 2 is filled to the game's 3 seats with this built-in bot (played in-process, never rated). */
export const CHALLENGE_FILLER: { bot: BuiltinBotName; botId: string; botName: string } = {
  bot: 'greedy',
  botId: 'builtin:greedy',
  botName: 'greedy (built-in)',
};
/** The game seats 3 or 4. */
export const MIN_SEATS = 3;

export interface ChallengeTable {
  challenge: ChallengeRecord;
  /** The challenger's bot first, then the opponents as named. */
  bots: BotRecord[];
  /** Built-in seats added to reach MIN_SEATS. */
  fillers: number;
  /** The match to start under this id: the challenge already names it (played). */
  matchId: string;
}

export interface TakeChallengesOptions {
  store: Store;
  /** The idle active bots of this tick (not playing); those a returned table takes are deleted from it. */
  idle: Map<string, BotRecord>;
  /** Tables the scheduler may still start this tick. */
  room: number;
  now: number;
  newMatchId: () => string;
  log: (fields: Record<string, unknown>) => void;
}

/** Why a bot can no longer play a challenge; null when it still can (idle or not). */
function refusal(bot: BotRecord | null | undefined, id: string, challenger: ChallengeRecord): string | null {
  const mine = id === challenger.botId;
  if (!bot || bot.removedAt !== null) return `bot ${id} was removed`;
  if (mine && bot.ownerId !== challenger.ownerId) return `bot ${id} is not yours`;
  if (bot.status === 'paused') return `bot ${id} is paused`;
  if (!mine && bot.challengeable === false && bot.ownerId !== challenger.ownerId)
    return `bot ${id} does not accept challenges`;
  return null;
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

/**
 * Settles what cannot be played and returns the tables to start now. A settle
 * that fails (the store away) is logged and tried again next tick; a table is
 * returned only once its challenge is marked played, so a challenge plays once.
 */
export async function takeChallenges(opts: TakeChallengesOptions): Promise<ChallengeTable[]> {
  const { store, idle, log } = opts;
  const pending = await store.listPendingChallenges();
  if (pending.length === 0) return [];
  const wanted = [...new Set(pending.flatMap((c) => [c.botId, ...c.opponents]))].filter((id) => !idle.has(id));
  const others = wanted.length > 0 ? await botsById(store, wanted) : new Map<string, BotRecord>();
  // Every bot named, as of this tick: idle loses the bots of each table taken, and they are not removed for that.
  const known = new Map([...others, ...idle]);
  const tables: ChallengeTable[] = [];
  const settle = async (c: ChallengeRecord, outcome: ChallengeOutcome): Promise<boolean> => {
    try {
      const done = await store.settleChallenge(c.id, outcome);
      if (done)
        log({
          event: `challenge.${outcome.status}`,
          challengeId: c.id,
          ...(outcome.status === 'played' ? { matchId: outcome.matchId } : { reason: outcome.reason }),
        });
      return done !== null;
    } catch (err) {
      log({ event: 'challenge.error', challengeId: c.id, error: err instanceof Error ? err.message : String(err) });
      return false;
    }
  };
  for (const c of pending) {
    const ids = [c.botId, ...c.opponents];
    const reason = ids.map((id) => refusal(known.get(id), id, c)).find((r) => r !== null);
    if (reason) {
      await settle(c, { status: 'refused', reason });
      continue;
    }
    if (Date.parse(c.expiresAt) <= opts.now) {
      await settle(c, { status: 'expired', reason: 'its bots were never all idle at one tick before it expired' });
      continue;
    }
    if (tables.length >= opts.room || !ids.every((id) => idle.has(id))) continue;
    const matchId = opts.newMatchId();
    if (!(await settle(c, { status: 'played', matchId }))) continue;
    tables.push({
      challenge: c,
      bots: ids.map((id) => idle.get(id)!),
      fillers: Math.max(0, MIN_SEATS - ids.length),
      matchId,
    });
    for (const id of ids) idle.delete(id);
  }
  return tables;
}
