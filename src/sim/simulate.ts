// In-process games between built-in bots: the engine at full speed, no sockets.
// Seats rotate between games so no bot keeps the first-move advantage.
import {
  createBuiltinBot, BUILTIN_BOTS, currentTurn, newGame, nextSeat, outcome, pendingDecisions, submit,
  type AnyAction, type BuiltinBot, type Game,
} from '../../engine';

export type BuiltinName = (typeof BUILTIN_BOTS)[number];

export interface SimulateOptions {
  games: number;
  /** 3 or 4 built-in bot names; one seat each. */
  bots: string[];
  seed: string;
  /** Called after each game with the number finished so far. */
  onProgress?: (done: number) => void;
}

export interface SimBotStats {
  bot: string;
  wins: number;
  winRate: number;
  avgVp: number;
  avgPlacement: number;
}

export interface SimulateResult {
  games: number;
  seed: string;
  seconds: number;
  gamesPerSecond: number;
  avgTurns: number;
  /** Games ended by a 10 VP win (the rest hit the turn cap). */
  wonGames: number;
  decisions: number;
  bots: SimBotStats[];
}

export class SimulateError extends Error {}

export function validateBots(bots: string[]): BuiltinName[] {
  if (bots.length < 3 || bots.length > 4) {
    throw new SimulateError(`need 3 or 4 bots (one per seat), got ${bots.length}: ${bots.join(',') || '(none)'}`);
  }
  for (const b of bots) {
    if (!(BUILTIN_BOTS as readonly string[]).includes(b)) {
      throw new SimulateError(`unknown bot "${b}"; built-in bots are: ${BUILTIN_BOTS.join(', ')}`);
    }
  }
  return bots as BuiltinName[];
}

/** Seed of game i of a run: documented so any single game can be reproduced. */
export function gameSeed(seed: string, index: number): string {
  return `${seed}/${index}`;
}

/**
 * Plays one game to the end; seatBots[s] answers for seat s. Returns the number
 * of decisions answered. onAnswer sees each applied answer (benchmarks record them).
 */
export function playToEnd(g: Game, seatBots: readonly BuiltinBot[], onAnswer?: (seat: number, answer: AnyAction) => void): number {
  let decisions = 0;
  for (let seat = nextSeat(g); seat !== -1; seat = nextSeat(g)) {
    const answer = seatBots[seat].decide(g, seat);
    const res = submit(g, seat, answer);
    if (!res.ok) {
      const kind = pendingDecisions(g).find((d) => d.seat === seat)?.kind;
      throw new Error(`built-in bot ${seatBots[seat].name} at seat ${seat} made an illegal ${kind}: ${res.reason.code}: ${res.reason.message}`);
    }
    onAnswer?.(seat, answer);
    decisions++;
  }
  return decisions;
}

export function simulate(opts: SimulateOptions): SimulateResult {
  const names = validateBots(opts.bots);
  if (!Number.isInteger(opts.games) || opts.games < 1) throw new SimulateError(`--games must be a positive integer, got ${opts.games}`);
  const n = names.length as 3 | 4;
  const totals = names.map(() => ({ wins: 0, vp: 0, placement: 0 }));
  let turns = 0;
  let won = 0;
  let decisions = 0;
  const start = performance.now();
  for (let i = 0; i < opts.games; i++) {
    const seed = gameSeed(opts.seed, i);
    // Rotation: bot b sits at seat (b + i) % n in game i.
    const botAtSeat = Array.from({ length: n }, (_, s) => (s - (i % n) + n) % n);
    const seatBots = botAtSeat.map((b, s) => createBuiltinBot(names[b], `${seed}:${s}`));
    const g = newGame(seed, n, { events: false });
    decisions += playToEnd(g, seatBots);
    const out = outcome(g);
    if (!out) throw new Error(`game ${i} ended without an outcome`);
    turns += out.turns ?? currentTurn(g);
    if (out.reason === 'win') won++;
    botAtSeat.forEach((b, s) => {
      totals[b].vp += out.vp[s];
      totals[b].placement += out.placements[s];
      if (out.winner === s) totals[b].wins++;
    });
    opts.onProgress?.(i + 1);
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    games: opts.games,
    seed: opts.seed,
    seconds: round(seconds, 3),
    gamesPerSecond: round(opts.games / seconds, 1),
    avgTurns: round(turns / opts.games, 2),
    wonGames: won,
    decisions,
    bots: names.map((bot, b) => ({
      bot,
      wins: totals[b].wins,
      winRate: round(totals[b].wins / opts.games, 4),
      avgVp: round(totals[b].vp / opts.games, 2),
      avgPlacement: round(totals[b].placement / opts.games, 3),
    })),
  };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
