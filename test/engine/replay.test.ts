import { describe, expect, it } from 'vitest';
import { createBuiltinBot } from '../../engine/bots/index';
import {
  abortGame,
  defaultAction,
  gameEvents,
  isOver,
  newGame,
  outcome,
  pendingDecisions,
  recordStrike,
  resignSeat,
  submit,
} from '../../engine/game';
import { checkHeaderResult, checkHeaderSeats, stepReplay, verifyReplay, type RecordHeader } from '../../engine/replay';
import type { GameEvent, StrikeReason } from '../../engine/types';
import { rng as testRng } from './testRng';

/** Plays like a runner would: random bots, some answers late (strike + default), three strikes resign the seat. */
function runnerLike(seed: string, abortAfter = Infinity) {
  const g = newGame(seed, 4);
  const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `${seed}/${s}`));
  const pick = testRng(seed);
  const strikes = [0, 0, 0, 0];
  const resigned = [false, false, false, false];
  let steps = 0;
  while (!isOver(g)) {
    if (++steps > abortAfter) {
      abortGame(g);
      break;
    }
    for (const d of pendingDecisions(g)) {
      let answer = bots[d.seat].decide(g, d.seat);
      if (resigned[d.seat]) {
        answer = defaultAction(g, d.seat);
      } else if (pick() < 0.01) {
        const reason: StrikeReason = (['late', 'malformed', 'illegal'] as const)[Math.floor(pick() * 3)];
        recordStrike(g, d.seat, reason, ++strikes[d.seat], d.kind);
        if (strikes[d.seat] === 3) {
          resignSeat(g, d.seat);
          resigned[d.seat] = true;
        }
        answer = defaultAction(g, d.seat);
      }
      const r = submit(g, d.seat, answer);
      if (!r.ok) throw new Error(r.reason.message);
    }
  }
  return { g, resigned };
}

describe('replay verification', () => {
  it('reproduces games with strikes, defaults and resignations', () => {
    let sawResign = false,
      sawTimeout = false;
    for (let i = 0; i < 12; i++) {
      const { g, resigned } = runnerLike(`runner${i}`);
      const record = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
      sawResign ||= resigned.some(Boolean);
      sawTimeout ||= record.some((e) => e.kind === 'timeout');
      expect(verifyReplay(`runner${i}`, 4, record)).toEqual({ ok: true, outcome: outcome(g) });
      const o = outcome(g)!;
      resigned.forEach((r, s) => {
        if (r) expect(o.placements[s]).toBeGreaterThan(resigned.filter((x) => !x).length);
      });
    }
    expect(sawTimeout).toBe(true);
    expect(sawResign).toBe(true);
  });

  it('reproduces an aborted game, with no outcome', () => {
    const { g } = runnerLike('aborted', 500);
    const record = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
    expect(record.at(-1)).toMatchObject({ kind: 'end', data: { reason: 'aborted' } });
    expect(verifyReplay('aborted', 4, record)).toEqual({ ok: true, outcome: null });
  });

  it('rejects a record with an extra, a missing or a forged event', () => {
    const { g } = runnerLike('forge');
    const good = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
    const missing = good.filter((_, i) => i !== 40);
    expect(verifyReplay('forge', 4, missing)).toMatchObject({ ok: false });
    const extra = [...good, { kind: 'talk', seat: 0, data: { message: 'hi' } }];
    expect(verifyReplay('forge', 4, extra)).toMatchObject({ ok: false, index: good.length });
    const forged = JSON.parse(JSON.stringify(good)) as GameEvent[];
    const i = forged.findIndex(
      (e) => e.kind === 'action' && (e.data as { kind: string }).kind === 'turn' && e.seat === 1,
    );
    (forged[i].data as { action: unknown }).action = { type: 'build_city', vertex: 0 };
    const r = verifyReplay('forge', 4, forged);
    expect(r).toMatchObject({ ok: false, index: i });
    expect(verifyReplay('forge', 3, good)).toMatchObject({ ok: false });
    const garbage = [...good.slice(0, 10), null, ...good.slice(10)] as unknown as GameEvent[];
    expect(verifyReplay('forge', 4, garbage)).toMatchObject({ ok: false, index: 10 });
    const badSeat = [
      ...good.slice(0, 10),
      { kind: 'timeout', seat: 9, data: { reason: 'late', strikes: 1, decision: 'setup' } },
    ];
    expect(verifyReplay('forge', 4, badSeat)).toMatchObject({ ok: false, index: 10 });
  });

  it('stepReplay visits after each input with the index of its last event', () => {
    const { g } = runnerLike('steps');
    const record = gameEvents(g);
    const visited: number[] = [];
    const r = stepReplay('steps', 4, record, (_game, last) => visited.push(last));
    expect(r.ok).toBe(true);
    const inputs = record.filter((e) => ['action', 'timeout', 'resign'].includes(e.kind)).length;
    expect(visited).toHaveLength(inputs);
    expect(visited.at(-1)).toBe(record.length - 1);
    for (let k = 1; k < visited.length; k++) expect(visited[k]).toBeGreaterThanOrEqual(visited[k - 1]);
  });

  it('stepReplay reports each event as it is appended, with the game as it stands then', () => {
    const { g } = runnerLike('between');
    const record = gameEvents(g);
    const seen: Array<{ i: number; logged: number; turn: number; current: number }> = [];
    const r = stepReplay(
      'between',
      4,
      record,
      () => {},
      (game, i) => seen.push({ i, logged: gameEvents(game).length, turn: game.turn, current: game.current }),
    );
    expect(r.ok).toBe(true);
    expect(seen.map((x) => x.i)).toEqual(record.map((_, i) => i).slice(1));
    for (const x of seen) expect(x.logged).toBe(x.i + 1);
    // An end of turn is appended before the turn passes; the roll after it, after.
    const i = record.findIndex(
      (e, k) =>
        e.kind === 'action' &&
        (e.data as { action: { type?: string } }).action.type === 'end_turn' &&
        record[k + 1]?.kind === 'roll',
    );
    const at = seen.find((x) => x.i === i)!,
      roll = seen.find((x) => x.i === i + 1)!;
    expect(at.current).toBe(record[i].seat);
    expect(roll.current).toBe(record[i + 1].seat);
    expect(roll.turn).toBe(at.turn + 1);
  });
});

describe('record headers against the replay', () => {
  const { g } = runnerLike('header');
  const events = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
  const o = outcome(g)!;
  const header: RecordHeader = {
    status: 'completed',
    seatCount: 4,
    players: o.placements.map((placement, seat) => ({ seat, placement })),
    vp: o.vp.slice(),
  };

  it("accepts a header that tells the replay's story", () => {
    expect(checkHeaderSeats(header, events)).toBeNull();
    expect(checkHeaderResult(header, events, o)).toBeNull();
  });

  it('names what a header claims against the replay', () => {
    expect(checkHeaderResult({ ...header, status: 'aborted' }, events, o)).toMatch(
      /says status aborted.*(win|turn cap)/,
    );
    expect(checkHeaderResult({ ...header, vp: o.vp.map((v) => v + 1) }, events, o)).toMatch(/final VP/);
    expect(checkHeaderResult({ ...header, vp: null }, events, o)).toMatch(/final VP are missing/);
    const claimed = (o.placements[2] % 4) + 1;
    const players = header.players.map((p) => (p.seat === 2 ? { ...p, placement: claimed } : p));
    expect(checkHeaderResult({ ...header, players }, events, o)).toContain(
      `seat 2 placement ${claimed}, but the replay gives it placement ${o.placements[2]}`,
    );
    expect(checkHeaderResult(header, events.slice(0, -1), o)).toMatch(/stops before the game ends/);
    expect(checkHeaderSeats({ ...header, seatCount: 3 }, events)).toMatch(/3 seats.*says 4/);
    expect(checkHeaderSeats({ ...header, players: header.players.slice(0, 3) }, events)).toMatch(
      /3 players for 4 seats/,
    );
    expect(
      checkHeaderSeats(
        { ...header, players: header.players.map((p) => ({ ...p, seat: p.seat === 3 ? 0 : p.seat })) },
        events,
      ),
    ).toMatch(/seats 0, 0, 1, 2/);
  });

  it('an aborted game has no placements and no VP', () => {
    const { g: a } = runnerLike('header-aborted', 400);
    const aborted = JSON.parse(JSON.stringify(gameEvents(a))) as GameEvent[];
    const h: RecordHeader = {
      status: 'aborted',
      seatCount: 4,
      players: [0, 1, 2, 3].map((seat) => ({ seat, placement: null })),
      vp: null,
    };
    expect(checkHeaderResult(h, aborted, null)).toBeNull();
    expect(checkHeaderResult({ ...h, status: 'completed' }, aborted, null)).toMatch(/says status completed.*abort/);
    expect(checkHeaderResult({ ...h, vp: [1, 1, 1, 1] }, aborted, null)).toMatch(/no.*VP|has none/);
  });
});
