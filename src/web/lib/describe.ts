// A replay event in words, for the match page's log: "Alpha rolled 3+5 = 8:
// Bravo +1 grain". Works on both forms: the full replay of a finished match
// and the public events of a live one (no stolen card, no bought card, no
// rejection details). Data is read defensively: an unknown event still shows.
import { HEX_COUNT } from '../../../engine/index';
import type { BoardView } from '../../../engine/index';

export interface EventLike {
  seq?: number;
  kind: string;
  seat?: number;
  data?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function countsText(v: unknown, sign = ''): string {
  if (!isObj(v)) return 'nothing';
  const parts = Object.entries(v)
    .filter(([, n]) => typeof n === 'number' && n > 0)
    .map(([r, n]) => `${sign}${n} ${r}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

export interface DescribeContext {
  /** Bot name per seat. */
  names: readonly string[];
  /** The board, to name hexes by resource and number. */
  board?: BoardView | null;
}

const AWARD: Record<string, string> = { largestArmy: 'largest army', longestRoad: 'longest road' };

export function seatName(ctx: DescribeContext, s: number | undefined | null): string {
  if (s === undefined || s === null) return 'nobody';
  return ctx.names[s] ? `${ctx.names[s]} (seat ${s})` : `seat ${s}`;
}

export function hexName(ctx: DescribeContext, h: unknown): string {
  const id = num(h);
  if (id === undefined || id < 0 || id >= HEX_COUNT) return 'hex ?';
  const hex = ctx.board?.hexes.find((x) => x.id === id);
  if (!hex) return `hex ${id}`;
  return hex.resource === 'desert' ? `the desert (hex ${id})` : `the ${hex.resource} ${hex.token ?? ''} (hex ${id})`;
}

export function describeEvent(ev: EventLike, ctx: DescribeContext): string {
  const d = isObj(ev.data) ? ev.data : {};
  const who = seatName(ctx, ev.seat);
  switch (ev.kind) {
    case 'start':
      return `The match starts with ${num(d.seatCount) ?? '?'} seats (rules ${str(d.rulesVersion) ?? '?'}).`;
    case 'action':
      return describeAction(who, d, ctx);
    case 'roll': {
      const dice = Array.isArray(d.dice) ? d.dice.filter((x): x is number => typeof x === 'number') : [];
      const total = dice.reduce((a, b) => a + b, 0);
      const gains: string[] = [];
      (Array.isArray(d.produced) ? d.produced : []).forEach((p, s) => {
        const t = countsText(p, '+');
        if (t !== 'nothing') gains.push(`${seatName(ctx, s)} ${t}`);
      });
      const tail = total === 7 ? ': the bandit moves' : gains.length ? `: ${gains.join('; ')}` : ': nothing is produced';
      return `${who} rolled ${dice.join('+')} = ${total}${tail}.`;
    }
    case 'payout':
      return `${who} receives ${countsText(d.gained)} for the second settlement.`;
    case 'discard':
      return `${who} discarded ${countsText(d.cards)}.`;
    case 'bandit': {
      const base = `${who} moved the bandit to ${hexName(ctx, d.hex)}`;
      if (num(d.victim) === undefined) return `${base}.`;
      const victim = seatName(ctx, num(d.victim));
      if (typeof d.stole === 'string') return `${base} and stole 1 ${d.stole} from ${victim}.`;
      if (d.stole === null || d.stoleCard === false) return `${base} and robbed ${victim}, who had no cards.`;
      return `${base} and stole a card from ${victim}.`;
    }
    case 'build': {
      const what = str(d.what) ?? 'piece';
      const where = what === 'road' ? `on edge ${num(d.at) ?? '?'}` : `at vertex ${num(d.at) ?? '?'}`;
      return `${who} built a ${what} ${where}${d.free === true ? ' (free, roadworks)' : ''}.`;
    }
    case 'dev':
      return describeDev(who, d);
    case 'trade': {
      if (d.to === 'bank') return `${who} traded ${countsText(d.give)} to the bank for ${countsText(d.get)}.`;
      if (d.accepted === false) return `Nobody took ${who}'s offer.`;
      return `${seatName(ctx, num(d.from) ?? ev.seat)} gave ${countsText(d.give)} to ${seatName(ctx, num(d.to))} for ${countsText(d.get)}.`;
    }
    case 'talk':
      return `${who} says “${str(d.message) ?? ''}”`;
    case 'award': {
      const name = AWARD[str(d.award) ?? ''] ?? String(d.award);
      const holder = num(d.seat);
      if (holder === undefined) return `Nobody holds the ${name} now.`;
      const from = num(d.from);
      return `${seatName(ctx, holder)} takes the ${name}${from === undefined ? '' : ` from ${seatName(ctx, from)}`}.`;
    }
    case 'timeout': {
      const reason = str(d.reason) ?? '?';
      const why = str(d.message) ?? str(d.code);
      return `Strike ${num(d.strikes) ?? '?'} for ${who}: ${STRIKE_REASON[reason] ?? reason} on a ${str(d.decision) ?? '?'} decision${why ? ` (${why})` : ''}; the engine plays the default.`;
    }
    case 'resign':
      return `${who} resigned after ${num(d.strikes) ?? 3} strikes; the engine plays for it from now on.`;
    case 'end': {
      const reason = str(d.reason);
      if (reason === 'aborted') return `The match was aborted after ${num(d.turns) ?? '?'} turns: no placements.`;
      const placements = Array.isArray(d.placements) ? d.placements : [];
      const vp = Array.isArray(d.vp) ? d.vp : [];
      const order = placements.map((p, s) => ({ p: Number(p), s })).sort((a, b) => a.p - b.p || a.s - b.s);
      const list = order.map(({ p, s }) => `#${p} ${seatName(ctx, s)} ${vp[s] ?? '?'} VP`).join(', ');
      return `Game over (${reason === 'win' ? 'a win' : 'the turn cap'}) after ${num(d.turns) ?? '?'} turns: ${list}.`;
    }
    default:
      return `${who}: ${ev.kind}`;
  }
}

const STRIKE_REASON: Record<string, string> = {
  late: 'no answer in time',
  malformed: 'a malformed answer',
  oversize: 'an oversized answer',
  dropped: 'the connection dropped',
  illegal: 'an illegal answer',
};

function describeAction(who: string, d: Obj, ctx: DescribeContext): string {
  const a = isObj(d.action) ? d.action : {};
  const dflt = d.default === true ? ' (the engine’s default)' : '';
  const talk = str(a.talk) ? ` “${a.talk}”` : '';
  const say = (text: string) => `${who} chose to ${text}${dflt}.${talk}`;
  switch (d.kind) {
    case 'setup':
      return say(`place a settlement at vertex ${num(a.settlement) ?? '?'} and a road on edge ${num(a.road) ?? '?'}`);
    case 'discard':
      return say(`discard ${countsText(a.cards)}`);
    case 'bandit':
      return say(`move the bandit to ${hexName(ctx, a.hex)}${num(a.victim) !== undefined ? ` and rob ${seatName(ctx, num(a.victim))}` : ''}`);
    case 'trade':
      return say(a.accept === true ? 'accept the offer' : 'decline the offer');
    case 'turn':
      return say(turnActionText(a, ctx));
    default:
      return say(String(d.kind));
  }
}

function turnActionText(a: Obj, ctx: DescribeContext): string {
  switch (a.type) {
    case 'build_road': return `build a road on edge ${a.edge}`;
    case 'build_settlement': return `build a settlement at vertex ${a.vertex}`;
    case 'build_city': return `build a city at vertex ${a.vertex}`;
    case 'buy_dev': return 'buy a development card';
    case 'play_knight':
      return `play a knight: bandit to ${hexName(ctx, a.hex)}${typeof a.victim === 'number' ? `, robbing ${seatName(ctx, a.victim)}` : ''}`;
    case 'play_roadworks': return `play roadworks on edges ${Array.isArray(a.edges) ? a.edges.join(' and ') : '?'}`;
    case 'play_windfall': return `play windfall for ${countsText(a.take)}`;
    case 'play_embargo': return `play embargo on ${String(a.resource)}`;
    case 'bank_trade': return `trade ${String(a.give)} to the bank for ${String(a.get)}`;
    case 'offer_trade':
      return `offer ${countsText(a.give)} for ${countsText(a.get)} to ${typeof a.to === 'number' ? seatName(ctx, a.to) : 'everyone'}`;
    case 'end_turn': return 'end the turn';
    default: return String(a.type ?? 'act');
  }
}

function describeDev(who: string, d: Obj): string {
  const card = str(d.card);
  if (d.action === 'buy') return card ? `${who} bought a development card (${card.replace('_', ' ')}).` : `${who} bought a development card.`;
  switch (card) {
    case 'windfall': return `${who} played windfall and took ${countsText(d.take)}.`;
    case 'roadworks': return `${who} played roadworks (edges ${Array.isArray(d.edges) ? d.edges.join(' and ') : '?'}).`;
    case 'embargo': {
      const taken = Array.isArray(d.taken) ? d.taken.reduce((a: number, b: unknown) => a + (typeof b === 'number' ? b : 0), 0) : 0;
      return `${who} played embargo on ${str(d.resource) ?? '?'} and collected ${taken}.`;
    }
    default: return `${who} played a ${card ?? 'card'}.`;
  }
}

/** Strikes per seat after the events given (the latest `timeout` count of each seat). */
export function strikesOf(events: readonly EventLike[], seatCount: number): number[] {
  const out = new Array<number>(seatCount).fill(0);
  for (const ev of events) {
    if (ev.kind === 'timeout' && typeof ev.seat === 'number' && isObj(ev.data) && typeof ev.data.strikes === 'number') {
      out[ev.seat] = Math.max(out[ev.seat] ?? 0, ev.data.strikes);
    }
  }
  return out;
}
