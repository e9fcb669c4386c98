// In-process games between built-in bots: the engine at full speed, no sockets.
// Seats rotate between games so no bot keeps the first-move advantage.
import {
  ACCEPT,
  REJECT,
  answerOpenOffer,
  createBuiltinBot,
  BUILTIN_BOTS,
  currentTurn,
  newGame,
  nextSeat,
  offerAnswerers,
  outcome,
  pendingDecisions,
  submit,
  type AnyAction,
  type BuiltinBot,
  type Game,
} from '../../engine';

export type BuiltinName = (typeof BUILTIN_BOTS)[number];

export interface SimulateOptions {
  games: number;
  /** 3 or 4 built-in bot names; one seat each. */
  bots: string[];
  seed: string;
  /** Called after each game with the number finished so far. */
  onProgress?: (done: number) => void;
  /**
   * Stops the run after the games in play (simulateParallel only): the result
   * covers the games finished, with `interrupted` set.
   */
  signal?: AbortSignal;
  /**
   * Duplicate play: games come in groups of one game per seat that share a
   * seed (game i plays seed "<S>/<floor(i / seats)>"), so with the rotation
   * every bot plays each seed from every seat. `games` should be a multiple of the seats.
   */
  duplicate?: boolean;
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
  /** The run was stopped (signal) before all the games asked for were played; `games` counts those finished. */
  interrupted: boolean;
  /** Played in duplicate (see SimulateOptions.duplicate). */
  duplicate: boolean;
  /**
   * Each game's result for the confidence intervals (not printed), in game
   * order: games[j] is the game index, codes[j * bots + b] bot b's placement * 2 + 1 if it won.
   */
  outcomes: { games: Int32Array; codes: Uint8Array };
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
export function playToEnd(
  g: Game,
  seatBots: readonly BuiltinBot[],
  onAnswer?: (seat: number, answer: AnyAction) => void,
): number {
  // Answers to open offers are two-thirds of all decisions: when every bot can
  // say yes or no directly, all asked seats answer at once (same draws, same game).
  const responders = seatBots.every((b) => b.respond !== undefined);
  let decisions = 0;
  for (let seat = nextSeat(g); seat !== -1; seat = nextSeat(g)) {
    const asked = responders ? offerAnswerers(g) : 0;
    if (asked !== 0) {
      let accepts = 0;
      for (let w = asked; w !== 0; w &= w - 1) {
        const s = 31 - Math.clz32(w & -w);
        if (seatBots[s].respond!(g, s)) accepts |= 1 << s;
      }
      decisions += answerOpenOffer(g, accepts);
      if (onAnswer) {
        for (let w = asked; w !== 0; w &= w - 1) {
          const s = 31 - Math.clz32(w & -w);
          onAnswer(s, ((accepts >> s) & 1) === 1 ? ACCEPT : REJECT);
        }
      }
      continue;
    }
    const answer = seatBots[seat].decide(g, seat);
    const res = submit(g, seat, answer);
    if (!res.ok) {
      const kind = pendingDecisions(g).find((d) => d.seat === seat)?.kind;
      throw new Error(
        `built-in bot ${seatBots[seat].name} at seat ${seat} made an illegal ${kind}: ${res.reason.code}: ${res.reason.message}`,
      );
    }
    onAnswer?.(seat, answer);
    decisions++;
  }
  return decisions;
}

/**
 * What a run of games adds up to: integer sums only, so totals from several
 * workers add to exactly what one worker gets, whatever the order.
 */
export interface SimTally {
  games: number;
  turns: number;
  won: number;
  decisions: number;
  /** Per bot, in the order given: wins, VP and placements summed over games. */
  bots: Array<{ wins: number; vp: number; placement: number }>;
  /**
   * Each game played, for the confidence intervals: runs of consecutive games, each a byte per bot
   * (placement * 2 + 1 if it won) from game `from` on; `used` bytes of `codes` hold games.
   * Several workers' runs are put back in game order at the end.
   */
  perGame: GameRun[];
}

export interface GameRun {
  from: number;
  codes: Uint8Array;
  used: number;
}

/** The run that game `i` extends (the last one, when i follows it), with room for one more game of `bots` bytes. */
function runFor(runs: GameRun[], i: number, bots: number): GameRun {
  let run = runs[runs.length - 1];
  if (!run || run.from + run.used / bots !== i)
    runs.push((run = { from: i, codes: new Uint8Array(64 * bots), used: 0 }));
  if (run.used + bots > run.codes.length) {
    const grown = new Uint8Array(run.codes.length * 2);
    grown.set(run.codes);
    run.codes = grown;
  }
  return run;
}

export function emptyTally(bots: number): SimTally {
  return {
    games: 0,
    turns: 0,
    won: 0,
    decisions: 0,
    bots: Array.from({ length: bots }, () => ({ wins: 0, vp: 0, placement: 0 })),
    perGame: [],
  };
}

/** Adds `from` into `into` (both for the same bots). */
export function addTally(into: SimTally, from: SimTally): void {
  into.games += from.games;
  into.turns += from.turns;
  into.won += from.won;
  into.decisions += from.decisions;
  from.bots.forEach((b, i) => {
    into.bots[i].wins += b.wins;
    into.bots[i].vp += b.vp;
    into.bots[i].placement += b.placement;
  });
  into.perGame.push(...from.perGame);
}

/**
 * Plays games [from, to) of a run into `tally`; game i depends on the seed and i only.
 * `stop`, asked before each game, ends the range early. Returns the index of the
 * first game not played (`to` when all were).
 */
export function playRange(
  names: readonly BuiltinName[],
  seed: string,
  from: number,
  to: number,
  tally: SimTally,
  onGame?: () => void,
  stop?: () => boolean,
  duplicate = false,
): number {
  const n = names.length as 3 | 4;
  for (let i = from; i < to; i++) {
    if (stop?.()) return i;
    // Duplicate: the n games of a group share the group's seed; the rotation below seats each bot once in every seat.
    const gseed = gameSeed(seed, duplicate ? Math.floor(i / n) : i);
    // Rotation: bot b sits at seat (b + i) % n in game i.
    const botAtSeat = Array.from({ length: n }, (_, s) => (s - (i % n) + n) % n);
    const seatBots = botAtSeat.map((b, s) => createBuiltinBot(names[b], `${gseed}:${s}`));
    const g = newGame(gseed, n, { events: false });
    tally.decisions += playToEnd(g, seatBots);
    const out = outcome(g);
    if (!out) throw new Error(`game ${i} ended without an outcome`);
    tally.games++;
    tally.turns += out.turns ?? currentTurn(g);
    if (out.reason === 'win') tally.won++;
    const run = runFor(tally.perGame, i, n);
    const at = run.used;
    run.used += n;
    botAtSeat.forEach((b, s) => {
      run.codes[at + b] = out.placements[s] * 2 + (out.winner === s ? 1 : 0);
      tally.bots[b].vp += out.vp[s];
      tally.bots[b].placement += out.placements[s];
      if (out.winner === s) tally.bots[b].wins++;
    });
    onGame?.();
  }
  return to;
}

/** Checks the options and returns the bots' names. */
export function checkOptions(opts: Pick<SimulateOptions, 'bots' | 'games'>): BuiltinName[] {
  const names = validateBots(opts.bots);
  if (!Number.isInteger(opts.games) || opts.games < 1)
    throw new SimulateError(`--games must be a positive integer, got ${opts.games}`);
  return names;
}

export function simulate(opts: SimulateOptions): SimulateResult {
  const names = checkOptions(opts);
  const tally = emptyTally(names.length);
  const start = performance.now();
  let done = 0;
  playRange(names, opts.seed, 0, opts.games, tally, () => opts.onProgress?.(++done), undefined, opts.duplicate);
  return simResult(names, opts.seed, tally, (performance.now() - start) / 1000, opts.games, opts.duplicate);
}

/** How long the one-thread run plays before it lets the event loop (a signal, a timer) run. */
const SLICE_MS = 20;

/**
 * simulate(), in slices that let the event loop run between them, so `signal`
 * can stop it: the one-thread path of simulateParallel.
 */
export async function simulateSliced(opts: SimulateOptions): Promise<SimulateResult> {
  const names = checkOptions(opts);
  const tally = emptyTally(names.length);
  const start = performance.now();
  let next = 0;
  let sliceEnd = 0;
  const stop = () => opts.signal?.aborted === true || performance.now() >= sliceEnd;
  while (next < opts.games && !opts.signal?.aborted) {
    sliceEnd = performance.now() + SLICE_MS;
    next = playRange(
      names,
      opts.seed,
      next,
      opts.games,
      tally,
      () => opts.onProgress?.(tally.games),
      stop,
      opts.duplicate,
    );
    if (next < opts.games) await new Promise((r) => setImmediate(r));
  }
  return simResult(names, opts.seed, tally, (performance.now() - start) / 1000, opts.games, opts.duplicate);
}

/** The report of a run of `asked` games; `t.games` were played (fewer if it was stopped). */
export function simResult(
  names: readonly string[],
  seed: string,
  t: SimTally,
  seconds: number,
  asked: number,
  duplicate = false,
): SimulateResult {
  // A run stopped before its first game reports zeros, not NaN (JSON has no NaN).
  const per = (x: number) => (t.games === 0 ? 0 : x / t.games);
  return {
    games: t.games,
    seed,
    seconds: round(seconds, 3),
    gamesPerSecond: round(seconds > 0 ? t.games / seconds : 0, 1),
    avgTurns: round(per(t.turns), 2),
    wonGames: t.won,
    decisions: t.decisions,
    bots: names.map((bot, b) => ({
      bot,
      wins: t.bots[b].wins,
      winRate: round(per(t.bots[b].wins), 4),
      avgVp: round(per(t.bots[b].vp), 2),
      avgPlacement: round(per(t.bots[b].placement), 3),
    })),
    interrupted: t.games < asked,
    duplicate,
    outcomes: outcomesOf(t, names.length),
  };
}

/** The tally's games in game order (several workers' runs arrive in any order). */
function outcomesOf(t: SimTally, bots: number): SimulateResult['outcomes'] {
  const runs = [...t.perGame].sort((x, y) => x.from - y.from);
  const count = runs.reduce((sum, r) => sum + r.used / bots, 0);
  const games = new Int32Array(count);
  const codes = new Uint8Array(count * bots);
  let j = 0;
  for (const r of runs) {
    codes.set(r.codes.subarray(0, r.used), j * bots);
    for (let k = 0; k < r.used / bots; k++) games[j++] = r.from + k;
  }
  return { games, codes };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
