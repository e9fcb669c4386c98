// A schema complaint about a match record, in words: "player 0 has no
// "placement" (a number)" rather than zod's "players.0.placement: Invalid
// input: expected number, received undefined". The reader has a file, not
// our schema, so it says which part of the file and what it lacks.
import { replaceControls } from '../text/visible';

/** The parts of a zod issue this reads (zod 4's issue shapes, all optional but code and path). */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  expected?: string;
  values?: readonly unknown[];
  options?: readonly unknown[];
  keys?: readonly string[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** Lists in a record named by what one item is. */
const ITEM_NAMES: Record<string, string> = { replay: 'replay event', players: 'player' };

const printable = (s: string) => replaceControls(s, '\ufffd');
const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Where in the file: `the record`, `player 0`, `replay event 5, "data"`. */
export function partName(path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const next = path[i + 1];
    if (typeof seg === 'string' && typeof next === 'number') {
      parts.push(`${ITEM_NAMES[seg] ?? `"${clip(printable(seg))}" item`} ${next}`);
      i++;
    } else {
      parts.push(typeof seg === 'number' ? `item ${seg}` : `"${clip(printable(String(seg)))}"`);
    }
  }
  return parts.length ? parts.join(', ') : 'the record';
}

function typeWords(expected: string | undefined): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
    case 'int':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'array':
      return 'a list';
    case 'null':
      return 'null';
    default:
      return expected ? `a ${expected}` : 'a value';
  }
}

function valueWords(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `"${clip(printable(value))}"`;
  return clip(printable(String(value)));
}

function oneOf(values: readonly unknown[]): string {
  const shown = values.slice(0, 16).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return `one of ${shown.join(', ')}${values.length > 16 ? ', …' : ''}`;
}

function valueAt(json: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let v: unknown = json;
  for (const seg of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, seg)) return { found: false, value: undefined };
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return { found: true, value: v };
}

/** One sentence on what is wrong with the record `json`, for "FILE is not a match record: <this>". */
export function describeRecordIssue(issue: SchemaIssue, json: unknown): string {
  const path = issue.path;
  const field = path.length ? path[path.length - 1] : undefined;
  const holder = partName(path.slice(0, -1));
  const at = valueAt(json, path);
  const missing = path.length > 0 && !at.found;
  const fieldName = typeof field === 'number' ? `item ${field}` : `"${clip(printable(String(field)))}"`;
  const subject = partName(path);
  switch (issue.code) {
    case 'invalid_type':
      if (missing)
        return `${holder === 'the record' ? 'it' : holder} has no ${fieldName} (${typeWords(issue.expected)} expected)`;
      return `${subject} is ${valueWords(at.value)}, where ${typeWords(issue.expected)} is expected`;
    case 'invalid_value':
      if (missing)
        return `${holder === 'the record' ? 'it' : holder} has no ${fieldName} (${oneOf(issue.values ?? [])})`;
      return `${subject} is ${valueWords(at.value)}, not ${oneOf(issue.values ?? [])}`;
    case 'invalid_union':
      if (issue.options?.length) {
        if (missing) return `${holder === 'the record' ? 'it' : holder} has no ${fieldName} (${oneOf(issue.options)})`;
        return `${subject} is ${valueWords(at.value)}, not ${oneOf(issue.options)}`;
      }
      return `${subject} has none of the shapes it may have`;
    case 'unrecognized_keys':
      return `${path.length ? partName(path) : 'it'} has ${issue.keys?.length === 1 ? 'a field' : 'fields'} a match record does not have: ${(issue.keys ?? []).map((k) => `"${clip(printable(k))}"`).join(', ')}`;
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = String(small ? issue.minimum : issue.maximum);
      if (issue.origin === 'array')
        return `${subject} has ${Array.isArray(at.value) ? at.value.length : 'too'} item${Array.isArray(at.value) && at.value.length === 1 ? '' : 's'}; ${small ? 'at least' : 'at most'} ${bound} expected`;
      if (issue.origin === 'string')
        return `${subject} is too ${small ? 'short' : 'long'} (${small ? 'at least' : 'at most'} ${bound} characters)`;
      return `${subject} is ${valueWords(at.value)}; ${small ? 'at least' : 'at most'} ${bound} expected`;
    }
    default:
      return `${subject}: ${printable(issue.message).slice(0, 300)}`;
  }
}
