// What each seat may know (PioneersView) and what a spectator may see
// (PublicView). Opponents' hands and dev cards are counts only; hidden VP
// cards count only in the owner's myScore.

import { EDGE_COUNT, HEX_COUNT, HEX_KINDS, PORTS, RESOURCES, VERTEX_COUNT } from './board';
import type { Game } from './state';
import {
  STAGE_OVER,
  STAGE_SETUP,
  STAGE_TRADE,
  devTotal,
  handTotal,
  publicVp,
  setupSeat,
  toCounts,
  trueVp,
} from './state';
import type { BoardView, DevCardName, OpenTrade, PioneersView, PublicView, ResourceCounts, TableTalk } from './types';
import { DEV_CARDS } from './types';

export function boardView(g: Game): BoardView {
  const hexes: BoardView['hexes'] = [];
  for (let h = 0; h < HEX_COUNT; h++) {
    hexes.push({ id: h, resource: HEX_KINDS[g.hexRes[h]], token: g.hexToken[h] === 0 ? null : g.hexToken[h] });
  }
  const ports: BoardView['ports'] = PORTS.map((p) =>
    p.resource === undefined
      ? { vertices: [p.vertices[0], p.vertices[1]], rate: p.rate }
      : { vertices: [p.vertices[0], p.vertices[1]], rate: p.rate, resource: p.resource },
  );
  return { hexes, ports, bandit: g.bandit };
}

function roads(g: Game): Array<{ edge: number; seat: number }> {
  const out: Array<{ edge: number; seat: number }> = [];
  for (let e = 0; e < EDGE_COUNT; e++) if (g.roadOwner[e] !== -1) out.push({ edge: e, seat: g.roadOwner[e] });
  return out;
}

function towns(g: Game): Array<{ vertex: number; seat: number; city: boolean }> {
  const out: Array<{ vertex: number; seat: number; city: boolean }> = [];
  for (let v = 0; v < VERTEX_COUNT; v++) {
    if (g.townOwner[v] !== -1) out.push({ vertex: v, seat: g.townOwner[v], city: g.isCity[v] === 1 });
  }
  return out;
}

function perSeat(g: Game, f: (s: number) => number): number[] {
  const out: number[] = [];
  for (let s = 0; s < g.n; s++) out.push(f(s));
  return out;
}

function cardList(arr: Int8Array, seat: number): DevCardName[] {
  const out: DevCardName[] = [];
  for (let c = 0; c < 5; c++) for (let k = 0; k < arr[seat * 5 + c]; k++) out.push(DEV_CARDS[c]);
  return out;
}

function openTrade(g: Game): OpenTrade | null {
  if (g.stage !== STAGE_TRADE) return null;
  const t: OpenTrade = { from: g.tradeFrom, give: toCounts(g.tradeGive), get: toCounts(g.tradeGet) };
  if (g.tradeTo !== -1) t.to = g.tradeTo;
  if (g.tradeTalk !== null) t.talk = g.tradeTalk;
  return t;
}

function talkLog(g: Game): TableTalk[] {
  return g.talkLog.map((t) => ({ seat: t.seat, message: t.message, turn: t.turn }));
}

function fullHand(g: Game, seat: number): ResourceCounts {
  const out: ResourceCounts = {};
  for (let r = 0; r < 5; r++) out[RESOURCES[r]] = g.hand[seat * 5 + r];
  return out;
}

function awards(g: Game): PioneersView['awards'] {
  return {
    largestArmy: g.largestArmy === -1 ? null : g.largestArmy,
    longestRoad: g.longestRoad === -1 ? null : g.longestRoad,
  };
}

/**
 * Everything one seat may know. devCards lists the seat's cards held since
 * before this turn (victory_point cards included, though never played);
 * devBoughtThisTurn those bought this turn.
 */
/** What only `seat` may know (the private part of its seatView), without building the rest of the view. */
export function seatSecrets(
  g: Game,
  seat: number,
): Pick<PioneersView, 'hand' | 'devCards' | 'devBoughtThisTurn' | 'myScore'> {
  if (!Number.isInteger(seat) || seat < 0 || seat >= g.n) throw new RangeError(`no seat ${seat} in a ${g.n}-seat game`);
  return {
    hand: fullHand(g, seat),
    devCards: cardList(g.devOld, seat),
    devBoughtThisTurn: cardList(g.devNew, seat),
    myScore: trueVp(g, seat),
  };
}

export function seatView(g: Game, seat: number): PioneersView {
  if (!Number.isInteger(seat) || seat < 0 || seat >= g.n) throw new RangeError(`no seat ${seat} in a ${g.n}-seat game`);
  const setup = g.stage === STAGE_SETUP;
  return {
    seat,
    seatCount: g.n,
    phase: setup ? 'setup' : 'main',
    turn: g.turn,
    dice: setup ? null : [g.die1, g.die2],
    board: boardView(g),
    roads: roads(g),
    towns: towns(g),
    hand: fullHand(g, seat),
    handCounts: perSeat(g, (s) => handTotal(g, s)),
    devCards: cardList(g.devOld, seat),
    devBoughtThisTurn: cardList(g.devNew, seat),
    devCounts: perSeat(g, (s) => devTotal(g, s)),
    knightsPlayed: perSeat(g, (s) => g.knights[s]),
    scores: perSeat(g, (s) => publicVp(g, s)),
    myScore: trueVp(g, seat),
    awards: awards(g),
    deckRemaining: g.deck.length - g.deckPos,
    openTrade: openTrade(g),
    talkLog: talkLog(g),
  };
}

/** A spectator's view: counts only, no hands, no dev card identities, no seed. Scores are public VP. */
export function publicView(g: Game): PublicView {
  const setup = g.stage === STAGE_SETUP;
  return {
    seatCount: g.n,
    phase: setup ? 'setup' : g.stage === STAGE_OVER ? 'over' : 'main',
    turn: g.turn,
    current: setup ? setupSeat(g) : g.current,
    dice: setup ? null : [g.die1, g.die2],
    board: boardView(g),
    roads: roads(g),
    towns: towns(g),
    handCounts: perSeat(g, (s) => handTotal(g, s)),
    devCounts: perSeat(g, (s) => devTotal(g, s)),
    knightsPlayed: perSeat(g, (s) => g.knights[s]),
    roadLengths: perSeat(g, (s) => g.roadLen[s]),
    scores: perSeat(g, (s) => publicVp(g, s)),
    awards: awards(g),
    deckRemaining: g.deck.length - g.deckPos,
    openTrade: openTrade(g),
    talkLog: talkLog(g),
    resigned: perSeat(g, (s) => g.resigned[s]).map((r) => r === 1),
  };
}
