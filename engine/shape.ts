// Shape checks for answers that arrive from outside (a bot's JSON): every
// field present, of the right type, integers in range. This is the one check
// of what an answer must look like; the zod schemas in src/protocol/actions.ts
// describe exactly the same shapes (test/protocol/answer-agreement.test.ts
// compares the two on generated answers). Decisions:
// - unknown fields of an answer are ignored (a bot may add debug fields);
//   the keys of ResourceCounts are closed (an unknown resource is refused);
// - an optional field is given or absent: null is not "absent", it is refused;
// - a windfall takes exactly 2 cards (`bad_amount`) and `talk` is at most 240
//   characters (`talk_too_long`): bounds of the shape, refused before any rule;
// - roadworks naming one edge twice is well-shaped: the rules refuse the
//   second road (`occupied`).
// A good answer comes back as a fresh canonical object (fixed key order,
// zero counts dropped), so the replay records exactly what was applied.

import { EDGE_COUNT, HEX_COUNT, RESOURCES, VERTEX_COUNT } from './board';
import type { ResourceName } from './board';
import { TALK_LIMIT } from './state';
import type { AnyAction, DecisionKind, RejectionCode, ResourceCounts, TurnAction } from './types';

/** The codes a shape check can answer with. */
export type ShapeCode = Extract<RejectionCode, 'bad_shape' | 'talk_too_long' | 'bad_amount'>;
export const SHAPE_CODES: readonly ShapeCode[] = ['bad_shape', 'talk_too_long', 'bad_amount'];

export type Parsed = { ok: true; action: AnyAction } | { ok: false; code: ShapeCode; message: string };

/** Largest count accepted in a ResourceCounts field of an answer; nobody holds more than this. */
export const MAX_ANSWER_COUNT = 1000;
/** Cards a windfall takes. */
export const WINDFALL_CARDS = 2;

class ShapeError extends Error {
  constructor(
    readonly code: ShapeCode,
    message: string,
  ) {
    super(message);
  }
}

function bad(message: string): never {
  throw new ShapeError('bad_shape', message);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function int(o: Record<string, unknown>, key: string, max: number): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) bad(`'${key}' must be an integer 0..${max}`);
  return v;
}

/** Optional fields: absent (or undefined) means "not given"; null is refused like any other wrong type. */
function optInt(o: Record<string, unknown>, key: string, max: number): number | undefined {
  return o[key] === undefined ? undefined : int(o, key, max);
}

function talk(o: Record<string, unknown>): string | undefined {
  const v = o.talk;
  if (v === undefined) return undefined;
  if (typeof v !== 'string') bad("'talk' must be a string");
  // Characters are code points, as the spec's schema bound counts them (JSON Schema maxLength); length counts UTF-16
  // units.
  if (v.length > TALK_LIMIT) {
    const chars = codePoints(v);
    if (chars > TALK_LIMIT)
      throw new ShapeError('talk_too_long', `'talk' is ${chars} characters; the limit is ${TALK_LIMIT}`);
  }
  return v;
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function resource(o: Record<string, unknown>, key: string): ResourceName {
  const v = o[key];
  if (typeof v !== 'string' || !(RESOURCES as readonly string[]).includes(v))
    bad(`'${key}' must be one of ${RESOURCES.join(', ')}`);
  return v as ResourceName;
}

function counts(o: Record<string, unknown>, key: string): ResourceCounts {
  const v = o[key];
  if (!isRecord(v)) bad(`'${key}' must be an object of resource counts, e.g. {"brick": 1}`);
  // Closed keys: in ResourceCounts the keys are the data.
  for (const k of Object.keys(v)) {
    if (!(RESOURCES as readonly string[]).includes(k))
      bad(`'${key}': unknown resource '${k}' (allowed: ${RESOURCES.join(', ')})`);
  }
  const out: ResourceCounts = {};
  for (const r of RESOURCES) {
    const c = v[r];
    if (c === undefined) continue;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c > MAX_ANSWER_COUNT)
      bad(`'${key}.${r}' must be an integer 0..${MAX_ANSWER_COUNT}`);
    if (c > 0) out[r] = c;
  }
  return out;
}

function windfallTake(o: Record<string, unknown>): ResourceCounts {
  const take = counts(o, 'take');
  let total = 0;
  for (const r of RESOURCES) total += take[r] ?? 0;
  if (total !== WINDFALL_CARDS)
    throw new ShapeError('bad_amount', `'take' names ${total} cards; a windfall takes exactly ${WINDFALL_CARDS}`);
  return take;
}

function withOptional<T extends object>(base: T, extra: Record<string, unknown>): T {
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (base as Record<string, unknown>)[k] = v;
  return base;
}

const TURN_TYPES: readonly TurnAction['type'][] = [
  'build_road',
  'build_settlement',
  'build_city',
  'buy_dev',
  'play_knight',
  'play_roadworks',
  'play_windfall',
  'play_embargo',
  'bank_trade',
  'offer_trade',
  'end_turn',
];

function parseTurn(o: Record<string, unknown>): TurnAction {
  const type = o.type;
  if (typeof type !== 'string' || !(TURN_TYPES as readonly string[]).includes(type)) {
    bad(`'type' must be one of ${TURN_TYPES.join(', ')}`);
  }
  const t = type as TurnAction['type'];
  switch (t) {
    case 'build_road':
      return { type: t, edge: int(o, 'edge', EDGE_COUNT - 1) };
    case 'build_settlement':
      return { type: t, vertex: int(o, 'vertex', VERTEX_COUNT - 1) };
    case 'build_city':
      return { type: t, vertex: int(o, 'vertex', VERTEX_COUNT - 1) };
    case 'buy_dev':
      return { type: t };
    case 'play_knight':
      return withOptional({ type: t, hex: int(o, 'hex', HEX_COUNT - 1) }, { victim: optInt(o, 'victim', 3) });
    case 'play_roadworks': {
      const edges = o.edges;
      if (!Array.isArray(edges) || edges.length < 1 || edges.length > 2)
        bad("'edges' must be an array of 1 or 2 edge ids");
      const out = edges.map((_, i) => int(edges as unknown as Record<string, unknown>, String(i), EDGE_COUNT - 1));
      return { type: t, edges: out };
    }
    case 'play_windfall':
      return { type: t, take: windfallTake(o) };
    case 'play_embargo':
      return { type: t, resource: resource(o, 'resource') };
    case 'bank_trade':
      return { type: t, give: resource(o, 'give'), get: resource(o, 'get') };
    case 'offer_trade':
      return withOptional(
        { type: t, give: counts(o, 'give'), get: counts(o, 'get') },
        { to: optInt(o, 'to', 3), talk: talk(o) },
      );
    case 'end_turn':
      return withOptional({ type: t }, { talk: talk(o) });
  }
}

function parseKind(kind: DecisionKind, o: Record<string, unknown>): AnyAction {
  switch (kind) {
    case 'setup':
      return { settlement: int(o, 'settlement', VERTEX_COUNT - 1), road: int(o, 'road', EDGE_COUNT - 1) };
    case 'turn':
      return parseTurn(o);
    case 'discard':
      return { cards: counts(o, 'cards') };
    case 'bandit':
      return withOptional({ hex: int(o, 'hex', HEX_COUNT - 1) }, { victim: optInt(o, 'victim', 3), talk: talk(o) });
    case 'trade':
      if (typeof o.accept !== 'boolean') bad("'accept' must be true or false");
      return withOptional({ accept: o.accept }, { talk: talk(o) });
  }
}

/** Validates the shape of an answer to a decision of the given kind; unknown fields are dropped. */
export function parseAnswer(kind: DecisionKind, raw: unknown): Parsed {
  if (!isRecord(raw)) return { ok: false, code: 'bad_shape', message: `a ${kind} answer must be a JSON object` };
  try {
    return { ok: true, action: parseKind(kind, raw) };
  } catch (err) {
    if (err instanceof ShapeError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}

/** Copies ResourceCounts into five slots (brick, lumber, wool, grain, ore). */
export function countsInto(c: ResourceCounts, out: Int16Array): Int16Array {
  for (let r = 0; r < 5; r++) out[r] = c[RESOURCES[r]] ?? 0;
  return out;
}
