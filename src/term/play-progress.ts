// Live progress for `arena play`, always on stderr (stdout carries the data):
// a redrawn status line on a terminal, one plain line per finished game
// otherwise (CI logs, pipes).
import type { ArenaBot } from '../arena/bots';
import { totalStrikes, type GameResult } from '../arena/stats';
import type { TournamentProgress } from '../arena/tournament';
import { createStatusLine } from './status-line';
import { strikeText } from './tournament-table';

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface PlayProgress {
  gameDone(game: GameResult, progress: TournamentProgress): void;
  /** Replay events of running matches: on a terminal, the line shows their turns live. */
  matchEvent(matchId: string, event: { kind: string }): void;
  /** A free-form note (e.g. "interrupted: aborting running matches"), on its own line. */
  note(text: string): void;
  /** Clears the live line so the final output starts clean. */
  finish(): void;
}

export function createPlayProgress(
  stream: ProgressSink,
  bots: readonly ArenaBot[],
  opts: { redrawMs?: number; planned?: number } = {},
): PlayProgress {
  const tty = stream.isTTY === true;
  const names = new Map(bots.map((b) => [b.id, b.name]));
  const redrawMs = opts.redrawMs ?? 150;
  // Turns reached by each running match (one `roll` event per turn).
  const turns = new Map<string, number>();
  let last: TournamentProgress | null = null;
  let drawnAt = 0;
  const line = createStatusLine(stream);
  const clear = () => line.clear();
  const draw = () => {
    drawnAt = Date.now();
    const head = last ? statusLine(bots, last) : `games 0/${opts.planned ?? '?'}`;
    const live = turns.size ? ` | playing: ${[...turns.values()].map((t) => `turn ${t}`).join(', ')}` : '';
    line.draw(head + live);
  };
  return {
    gameDone(game, progress) {
      turns.delete(game.matchId);
      last = progress;
      if (tty) draw();
      else stream.write(gameLine(game, progress, names) + '\n');
    },
    matchEvent(matchId, event) {
      if (!tty) return;
      if (!turns.has(matchId)) turns.set(matchId, 0);
      if (event.kind === 'roll') turns.set(matchId, turns.get(matchId)! + 1);
      else if (event.kind === 'end') turns.delete(matchId);
      if (Date.now() - drawnAt >= redrawMs) draw();
    },
    note(text) {
      clear();
      stream.write(text + '\n');
    },
    finish: clear,
  };
}

/** `games 5/12 | wins: a 3, b 2, c 0 | strikes: b 1` (games finished so far). */
export function statusLine(bots: readonly ArenaBot[], p: TournamentProgress): string {
  const wins = bots.map((b) => `${b.name} ${p.tallies.get(b.id).wins}`).join(', ');
  const struck = bots
    .map((b) => ({ name: b.name, n: totalStrikes(p.tallies.get(b.id).strikes) }))
    .filter((x) => x.n > 0)
    .map((x) => `${x.name} ${x.n}`);
  return `games ${p.done}/${p.planned} | wins: ${wins}${struck.length ? ` | strikes: ${struck.join(', ')}` : ''}`;
}

/**
 * One finished game, numbered by its game number (the number its match id and
 * file end in), saying how it ended:
 *   `game 3/12 m-...-0003 (2.1s): alice won with 10 VP; 2nd bob 7 VP, 3rd carol 5 VP`
 *   `game 4/12 m-...-0004 (9.0s): turn cap after 200 turns, no winner; by VP: 1st alice 8 VP, ...`
 */
export function gameLine(game: GameResult, p: TournamentProgress, names: ReadonlyMap<string, string>): string {
  const head = `game ${game.index + 1}/${p.planned} ${game.matchId} (${(game.durationMs / 1000).toFixed(1)}s)`;
  if (game.status === 'aborted') return `${head}: aborted`;
  const name = (botId: string) => names.get(botId) ?? botId;
  const ranked = [...game.seats].sort((a, b) => (a.placement ?? 9) - (b.placement ?? 9) || a.seat - b.seat);
  const place = (s: GameResult['seats'][number]) =>
    `${ordinal(s.placement ?? 0)} ${name(s.botId)} ${s.vp ?? 0} VP${s.resigned ? ' (resigned)' : ''}`;
  const strikes = game.seats
    .filter((s) => totalStrikes(s.strikes) > 0)
    .map((s) => `${name(s.botId)} ${strikeText(s.strikes)}`);
  let result: string;
  const winner = game.ended === 'win' ? ranked.find((s) => s.won) : undefined;
  if (winner) {
    result = `${name(winner.botId)} won with ${winner.vp ?? 0} VP; ${ranked
      .filter((s) => s !== winner)
      .map(place)
      .join(', ')}`;
  } else {
    const turns = game.turns === null ? '' : ` after ${game.turns} turns`;
    result = `turn cap${turns}, no winner; by VP: ${ranked.map(place).join(', ')}`;
  }
  return `${head}: ${result}${strikes.length ? `; strikes: ${strikes.join('; ')}` : ''}`;
}

function ordinal(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}
