// Shape checks for answers that arrive from outside (a bot's JSON): every
// field present, of the right type, integers in range, no unknown keys.
// A good answer comes back as a fresh canonical object (fixed key order,
// zero counts dropped), so the replay records exactly what was applied.

import { EDGE_COUNT, HEX_COUNT, RESOURCES, VERTEX_COUNT } from './board';
import type { ResourceName } from './board';
import { TALK_LIMIT } from './state';
import type { AnyAction, DecisionKind, ResourceCounts, TurnAction } from './types';

export type Parsed = { ok: true; action: AnyAction } | { ok: false; code: string; message: string };

/** Largest count accepted in a ResourceCounts field; nobody holds more than this. */
const MAX_COUNT = 1000;

class ShapeError extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

function bad(message: string): never {
  throw new ShapeError('bad_shape', message);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) bad(`${what}: unknown field '${k}' (allowed: ${allowed.join(', ')})`);
  }
}

function int(o: Record<string, unknown>, key: string, max: number): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) bad(`'${key}' must be an integer 0..${max}`);
  return v;
}

/** Optional fields: absent, undefined or null all mean "not given". */
function optInt(o: Record<string, unknown>, key: string, max: number): number | undefined {
  return o[key] === undefined || o[key] === null ? undefined : int(o, key, max);
}

function talk(o: Record<string, unknown>): string | undefined {
  const v = o.talk;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') bad("'talk' must be a string");
  if (v.length > TALK_LIMIT) throw new ShapeError('talk_too_long', `'talk' is ${v.length} characters; the limit is ${TALK_LIMIT}`);
  return v;
}

function resource(o: Record<string, unknown>, key: string): ResourceName {
  const v = o[key];
  if (typeof v !== 'string' || !(RESOURCES as readonly string[]).includes(v)) bad(`'${key}' must be one of ${RESOURCES.join(', ')}`);
  return v as ResourceName;
}

function counts(o: Record<string, unknown>, key: string): ResourceCounts {
  const v = o[key];
  if (!isRecord(v)) bad(`'${key}' must be an object of resource counts, e.g. {"brick": 1}`);
  onlyKeys(v, RESOURCES, `'${key}'`);
  const out: ResourceCounts = {};
  for (const r of RESOURCES) {
    const c = v[r];
    if (c === undefined) continue;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c > MAX_COUNT) bad(`'${key}.${r}' must be an integer 0..${MAX_COUNT}`);
    if (c > 0) out[r] = c;
  }
  return out;
}

function withOptional<T extends object>(base: T, extra: Record<string, unknown>): T {
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (base as Record<string, unknown>)[k] = v;
  return base;
}

const TURN_FIELDS: Record<TurnAction['type'], readonly string[]> = {
  build_road: ['type', 'edge'],
  build_settlement: ['type', 'vertex'],
  build_city: ['type', 'vertex'],
  buy_dev: ['type'],
  play_knight: ['type', 'hex', 'victim'],
  play_roadworks: ['type', 'edges'],
  play_windfall: ['type', 'take'],
  play_embargo: ['type', 'resource'],
  bank_trade: ['type', 'give', 'get'],
  offer_trade: ['type', 'give', 'get', 'to', 'talk'],
  end_turn: ['type', 'talk'],
};

function parseTurn(o: Record<string, unknown>): TurnAction {
  const type = o.type;
  if (typeof type !== 'string' || !Object.hasOwn(TURN_FIELDS, type)) {
    bad(`'type' must be one of ${Object.keys(TURN_FIELDS).join(', ')}`);
  }
  const t = type as TurnAction['type'];
  onlyKeys(o, TURN_FIELDS[t], t);
  switch (t) {
    case 'build_road': return { type: t, edge: int(o, 'edge', EDGE_COUNT - 1) };
    case 'build_settlement': return { type: t, vertex: int(o, 'vertex', VERTEX_COUNT - 1) };
    case 'build_city': return { type: t, vertex: int(o, 'vertex', VERTEX_COUNT - 1) };
    case 'buy_dev': return { type: t };
    case 'play_knight': return withOptional({ type: t, hex: int(o, 'hex', HEX_COUNT - 1) }, { victim: optInt(o, 'victim', 3) });
    case 'play_roadworks': {
      const edges = o.edges;
      if (!Array.isArray(edges) || edges.length < 1 || edges.length > 2) bad("'edges' must be an array of 1 or 2 edge ids");
      const out = edges.map((_, i) => int(edges as unknown as Record<string, unknown>, String(i), EDGE_COUNT - 1));
      if (out.length === 2 && out[0] === out[1]) bad("'edges' names the same edge twice");
      return { type: t, edges: out };
    }
    case 'play_windfall': return { type: t, take: counts(o, 'take') };
    case 'play_embargo': return { type: t, resource: resource(o, 'resource') };
    case 'bank_trade': return { type: t, give: resource(o, 'give'), get: resource(o, 'get') };
    case 'offer_trade':
      return withOptional({ type: t, give: counts(o, 'give'), get: counts(o, 'get') }, { to: optInt(o, 'to', 3), talk: talk(o) });
    case 'end_turn': return withOptional({ type: t }, { talk: talk(o) });
  }
}

function parseKind(kind: DecisionKind, o: Record<string, unknown>): AnyAction {
  switch (kind) {
    case 'setup':
      onlyKeys(o, ['settlement', 'road'], 'setup');
      return { settlement: int(o, 'settlement', VERTEX_COUNT - 1), road: int(o, 'road', EDGE_COUNT - 1) };
    case 'turn': return parseTurn(o);
    case 'discard':
      onlyKeys(o, ['cards'], 'discard');
      return { cards: counts(o, 'cards') };
    case 'bandit':
      onlyKeys(o, ['hex', 'victim', 'talk'], 'bandit');
      return withOptional({ hex: int(o, 'hex', HEX_COUNT - 1) }, { victim: optInt(o, 'victim', 3), talk: talk(o) });
    case 'trade':
      onlyKeys(o, ['accept', 'talk'], 'trade');
      if (typeof o.accept !== 'boolean') bad("'accept' must be true or false");
      return withOptional({ accept: o.accept }, { talk: talk(o) });
  }
}

/** Validates the shape of an answer to a decision of the given kind. */
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
