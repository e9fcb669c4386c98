// Draws the tables of a tournament: which bots play each game and in which
// seat. Pure and deterministic from the seed, so `--seed` reproduces it.
// Goals: every bot plays about equally often (counts differ by at most 1),
// and each bot's seat positions rotate (seat 0 moves first, which matters).
import { shuffle, stream } from '../../engine';

/** tables[g][seat] = index of the bot (in the order given) that sits there in game g. */
export type Tables = number[][];

export function drawTables(botCount: number, seats: number, games: number, seed: string): Tables {
  if (!Number.isInteger(botCount) || botCount < seats)
    throw new RangeError(`need at least ${seats} bots for ${seats} seats, got ${botCount}`);
  if (!Number.isInteger(games) || games < 0) throw new RangeError(`games must be a whole number >= 0, got ${games}`);
  const rng = stream(seed, 'tables');
  const played = new Array<number>(botCount).fill(0);
  const seatCount = Array.from({ length: botCount }, () => new Array<number>(seats).fill(0));
  const perms = permutations(seats);
  const tables: Tables = [];
  for (let g = 0; g < games; g++) {
    // Fewest games first; a fresh random tie-break each game mixes opponents.
    const order = [...Array(botCount).keys()];
    shuffle(rng, order);
    order.sort((a, b) => played[a] - played[b]);
    const chosen = order.slice(0, seats);
    // Seat the chosen bots so that each goes where it has sat least often
    // (minimum total of squared counts over all seatings; at most 4! = 24).
    let best: number[] = [];
    let bestCost = Infinity;
    const shuffled = [...perms];
    shuffle(rng, shuffled);
    for (const p of shuffled) {
      let cost = 0;
      for (let seat = 0; seat < seats; seat++) {
        const c = seatCount[chosen[p[seat]]][seat] + 1;
        cost += c * c;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = p;
      }
    }
    const table = best.map((i) => chosen[i]);
    table.forEach((bot, seat) => {
      played[bot]++;
      seatCount[bot][seat]++;
    });
    tables.push(table);
  }
  return tables;
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(n - 1)) {
    for (let i = 0; i <= rest.length; i++) out.push([...rest.slice(0, i), n - 1, ...rest.slice(i)]);
  }
  return out;
}

/**
 * The entrant order that makes the engine's seed-driven seat shuffle put each
 * bot where the table wants it: the runner seats entrant order[seat] at seat.
 * Given seatOrder(seed, n) (result[seat] = entrant index), returns the
 * entrants arranged so that entrants[order[seat]] = table[seat].
 */
export function arrangeForSeats<T>(table: readonly T[], order: readonly number[]): T[] {
  if (order.length !== table.length)
    throw new RangeError(`seat order has ${order.length} seats, table has ${table.length}`);
  const out = new Array<T>(table.length);
  order.forEach((entrantIndex, seat) => {
    out[entrantIndex] = table[seat];
  });
  return out;
}

/**
 * Tables for duplicate play (`arena play --duplicate`): the games come in
 * groups of `seats`, one group per seed; the group's first game seats the
 * drawn table, and each next game rotates it by one seat, so every bot of the
 * table plays the same seed from every seat. `games` must be a multiple of `seats`.
 */
export function drawDuplicateTables(botCount: number, seats: number, games: number, seed: string): Tables {
  if (!Number.isInteger(games) || games < 0 || games % seats !== 0)
    throw new RangeError(`duplicate play needs a multiple of ${seats} games, got ${games}`);
  const tables: Tables = [];
  for (const table of drawTables(botCount, seats, games / seats, seed)) {
    for (let r = 0; r < seats; r++) tables.push(table.map((_, seat) => table[(seat + r) % seats]));
  }
  return tables;
}

/** The seed group of game `index` (0-based): its own with ordinary play, `seats` games a group with duplicate play. */
export function seedGroup(index: number, seats: number, duplicate: boolean): number {
  return duplicate ? Math.floor(index / seats) : index;
}
