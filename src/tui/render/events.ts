// One replay event as a human sentence: "seat 2 rolled 3+5=8: seat 0 +1 grain".
// The record's data is `unknown` on the wire, so every field is read through
// small guards; an event we cannot read still prints, as its kind and JSON.
import { seatColour } from './palette';
import { span, type Line, type Span } from './style';

export interface EventLike {
  kind: string;
  seat?: number;
  data?: unknown;
}

export interface DescribeOptions {
  /** Bot name per seat. */
  names: readonly string[];
  /** Short labels ("s2") for narrow screens. */
  short?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** "1 ore, 2 wool" from a ResourceCounts-like object; "nothing" when empty. */
export function countsText(v: unknown, gained = false): string {
  if (!isObj(v)) return 'nothing';
  const parts = Object.entries(v).filter(([, n]) => typeof n === 'number' && n > 0).map(([r, n]) => `${gained ? '+' : ''}${n} ${r}`);
  return parts.length ? parts.join(gained ? ' ' : ', ') : 'nothing';
}

export function describeEvent(ev: EventLike, opts: DescribeOptions): Line {
  const seatRef = (s: number | undefined | null, withName = false): Span => {
    if (s === undefined || s === null) return span('nobody');
    const label = opts.short ? `s${s}` : withName && opts.names[s] ? `seat ${s} (${opts.names[s]})` : `seat ${s}`;
    return span(label, { color: seatColour(s), bold: true });
  };
  const d = isObj(ev.data) ? ev.data : {};
  const actor = seatRef(ev.seat, true);
  const t = (text: string): Span => span(text);

  switch (ev.kind) {
    case 'start':
      return [t(`match starts: ${num(d.seatCount) ?? '?'} seats, rules ${str(d.rulesVersion) ?? '?'}`)];
    case 'action':
      return describeAction(actor, d, t);
    case 'roll': {
      const dice = Array.isArray(d.dice) ? d.dice.filter((x): x is number => typeof x === 'number') : [];
      const total = dice.reduce((a, b) => a + b, 0);
      const out: Line = [actor, t(` rolled ${dice.join('+')}=${total}`)];
      const produced = Array.isArray(d.produced) ? d.produced : [];
      const gains: Line = [];
      produced.forEach((p, s) => {
        if (countsText(p) === 'nothing') return;
        gains.push(t(gains.length ? ', ' : ': '), seatRef(s), t(` ${countsText(p, true)}`));
      });
      if (total === 7) gains.push(t(': bandit!'));
      else if (!gains.length) gains.push(t(': nothing paid'));
      return [...out, ...gains];
    }
    case 'payout':
      return [actor, t(` receives ${countsText(d.gained)}`)];
    case 'discard':
      return [actor, t(` discarded ${countsText(d.cards)}`)];
    case 'bandit': {
      const out: Line = [actor, t(` moved the bandit to hex ${num(d.hex) ?? '?'}`)];
      if (num(d.victim) !== undefined) {
        const stole = str(d.stole);
        out.push(t(stole ? ` and stole 1 ${stole} from ` : ' and robbed (nothing to take) '), seatRef(num(d.victim)));
      }
      return out;
    }
    case 'build': {
      const what = str(d.what) ?? '?';
      const where = what === 'road' ? `on edge ${num(d.at) ?? '?'}` : `at ${num(d.at) ?? '?'}`;
      return [actor, t(` built a ${what} ${where}${d.free === true ? ' (free)' : ''}`)];
    }
    case 'dev':
      return describeDev(actor, d, t);
    case 'trade': {
      if (d.to === 'bank') return [actor, t(` traded ${countsText(d.give)} to the bank for ${countsText(d.get)}`)];
      if (d.accepted === false) return [actor, t(`'s offer found no taker`)];
      return [actor, t(` traded ${countsText(d.give)} for ${countsText(d.get)} with `), seatRef(num(d.to))];
    }
    case 'talk':
      return [actor, t(' says '), span(`“${str(d.message) ?? ''}”`, { color: 'yellow' })];
    case 'award': {
      const name = d.award === 'largestArmy' ? 'largest army' : d.award === 'longestRoad' ? 'longest road' : String(d.award);
      const holder = num(d.seat);
      return holder === undefined ? [t(`nobody holds ${name} now`)] : [seatRef(holder, true), t(` takes ${name}`)];
    }
    case 'timeout': {
      // The runner may say why (the engine's rejection code and message for an illegal answer).
      const why = strikeWhy(str(d.code), str(d.message));
      return [actor, span(` strike ${num(d.strikes) ?? '?'}: ${str(d.reason) ?? '?'} on a ${str(d.decision) ?? '?'} decision${why ? ` (${why})` : ''}`, { color: 'red' })];
    }
    case 'resign':
      return [actor, span(` resigned after ${num(d.strikes) ?? 3} strikes; defaults play on`, { color: 'red', bold: true })];
    case 'end': {
      const reason = str(d.reason);
      if (reason === 'aborted') return [span(`match aborted after ${num(d.turns) ?? '?'} turns: no placements`, { bold: true })];
      const vp = Array.isArray(d.vp) ? d.vp : [];
      const placements = Array.isArray(d.placements) ? d.placements : [];
      const out: Line = [span(`game over (${reason === 'win' ? 'win' : 'turn cap'}) after ${num(d.turns) ?? '?'} turns:`, { bold: true })];
      const order = placements.map((p, s) => ({ p: Number(p), s })).sort((a, b) => a.p - b.p || a.s - b.s);
      for (const { p, s } of order) out.push(t(` #${p} `), seatRef(s), t(` ${vp[s] ?? '?'}vp`));
      return out;
    }
    default:
      return [actor, t(` ${ev.kind} ${ev.data === undefined ? '' : JSON.stringify(ev.data)}`)];
  }
}

/** "code: message", naming the code once: the runner's message may already start with it. */
function strikeWhy(code: string | undefined, message: string | undefined): string {
  if (!code) return message ?? '';
  if (!message || message === code) return code;
  return message.startsWith(`${code}: `) ? message : `${code}: ${message}`;
}

function describeAction(actor: Span, d: Obj, t: (s: string) => Span): Line {
  const a = isObj(d.action) ? d.action : {};
  const dflt = d.default === true ? span(' (default)', { color: 'red' }) : span('');
  const talk = str(a.talk) ? span(` “${a.talk}”`, { color: 'yellow' }) : span('');
  const arrow = (text: string): Line => [actor, span(` → ${text}`, { dim: true }), dflt, talk];
  switch (d.kind) {
    case 'setup':
      return arrow(`place settlement ${num(a.settlement) ?? '?'}, road ${num(a.road) ?? '?'}`);
    case 'discard':
      return arrow(`discard ${countsText(a.cards)}`);
    case 'bandit':
      return arrow(`bandit to hex ${num(a.hex) ?? '?'}${num(a.victim) !== undefined ? `, rob seat ${a.victim}` : ''}`);
    case 'trade':
      return arrow(a.accept === true ? 'accept the offer' : 'decline the offer');
    case 'turn':
      return arrow(turnActionText(a));
    default:
      return arrow(`${String(d.kind)} ${JSON.stringify(a)}`);
  }
}

function turnActionText(a: Obj): string {
  switch (a.type) {
    case 'build_road': return `road on edge ${a.edge}`;
    case 'build_settlement': return `settlement at ${a.vertex}`;
    case 'build_city': return `city at ${a.vertex}`;
    case 'buy_dev': return 'buy a dev card';
    case 'play_knight': return `knight: bandit to hex ${a.hex}${typeof a.victim === 'number' ? `, rob seat ${a.victim}` : ''}`;
    case 'play_roadworks': return `roadworks on ${Array.isArray(a.edges) ? a.edges.join(', ') : '?'}`;
    case 'play_windfall': return `windfall: take ${countsText(a.take)}`;
    case 'play_embargo': return `embargo on ${String(a.resource)}`;
    case 'bank_trade': return `bank trade ${String(a.give)} for ${String(a.get)}`;
    case 'offer_trade':
      return `offer ${countsText(a.give)} for ${countsText(a.get)} ${typeof a.to === 'number' ? `to seat ${a.to}` : 'to everyone'}`;
    case 'end_turn': return 'end turn';
    default: return JSON.stringify(a);
  }
}

function describeDev(actor: Span, d: Obj, t: (s: string) => Span): Line {
  const card = str(d.card) ?? 'a card';
  if (d.action === 'buy') return [actor, t(` bought a dev card (${card})`)];
  switch (card) {
    case 'windfall': return [actor, t(` played windfall: took ${countsText(d.take)}`)];
    case 'roadworks': return [actor, t(` played roadworks on ${Array.isArray(d.edges) ? d.edges.join(', ') : '?'}`)];
    case 'embargo': {
      const taken = Array.isArray(d.taken) ? d.taken.reduce((a: number, b: unknown) => a + (typeof b === 'number' ? b : 0), 0) : 0;
      return [actor, t(` played embargo on ${str(d.resource) ?? '?'}: took ${taken}`)];
    }
    default: return [actor, t(` played ${card}`)];
  }
}
