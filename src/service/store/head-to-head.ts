// Head-to-head of one bot from its match summaries: the file store's side of
// Store.headToHead (the Postgres store says the same in one SQL aggregate).
import type { IndexEntry } from './match-index';
import type { HeadToHeadRow, StoredMatchSummary } from './types';

interface Tally {
  games: number;
  above: number;
  mine: number;
  theirs: number;
}

/** Adds one match to the tallies: only completed matches in which the bot has a placement count. */
export function tallyMatch(tallies: Map<string, Tally>, botId: string, m: StoredMatchSummary): void {
  if (m.status !== 'completed') return;
  const places = new Map<string, number>();
  // A bot seated twice counts once, at its best place (the Postgres aggregate does the same).
  for (const p of m.players) {
    if (p.placement === null) continue;
    const known = places.get(p.botId);
    if (known === undefined || p.placement < known) places.set(p.botId, p.placement);
  }
  const mine = places.get(botId);
  if (mine === undefined) return;
  for (const [other, theirs] of places) {
    if (other === botId) continue;
    let t = tallies.get(other);
    if (!t) tallies.set(other, (t = { games: 0, above: 0, mine: 0, theirs: 0 }));
    t.games++;
    if (mine < theirs) t.above++;
    t.mine += mine;
    t.theirs += theirs;
  }
}

export function rowsOf(tallies: Map<string, Tally>): HeadToHeadRow[] {
  return [...tallies].map(([opponentId, t]) => ({
    opponentId,
    games: t.games,
    above: t.above,
    meanPlacement: t.mine / t.games,
    opponentMeanPlacement: t.theirs / t.games,
  }));
}

/** How many bots' tallies the file store keeps; a bot not among them is tallied again from its summaries. */
const MEMO_BOTS = 256;
/** Summaries read at once from the match log. */
const READ_BATCH = 64;

/**
 * The file store's head-to-head: tallies kept per bot and grown by the
 * completed matches not yet counted (a completed match never changes), so a
 * bot with thousands of matches costs one read of each summary once, then an
 * in-memory walk of its index list per request. The most recently asked
 * bots are kept.
 */
export class HeadToHeadMemo {
  private readonly memo = new Map<string, { seen: Set<string>; tallies: Map<string, Tally> }>();

  constructor(
    private readonly entriesOf: (botId: string) => readonly IndexEntry[],
    private readonly summary: (e: IndexEntry) => Promise<StoredMatchSummary>,
  ) {}

  async rows(botId: string, game: 'pioneers'): Promise<HeadToHeadRow[]> {
    const key = `${game}\n${botId}`;
    let memo = this.memo.get(key);
    if (memo) this.memo.delete(key);
    else memo = { seen: new Set(), tallies: new Map() };
    this.memo.set(key, memo);
    if (this.memo.size > MEMO_BOTS) this.memo.delete(this.memo.keys().next().value!);
    const fresh = this.entriesOf(botId).filter(
      (e) => e.status === 'completed' && e.game === game && !memo.seen.has(e.id),
    );
    for (let i = 0; i < fresh.length; i += READ_BATCH) {
      const batch = fresh.slice(i, i + READ_BATCH);
      const sums = await Promise.all(batch.map((e) => this.summary(e)));
      sums.forEach((m, j) => {
        // Two requests at once may read the same match: it is counted once.
        if (memo.seen.has(batch[j].id)) return;
        memo.seen.add(batch[j].id);
        tallyMatch(memo.tallies, botId, m);
      });
    }
    return rowsOf(memo.tallies);
  }
}
