// How the arena classifies what a bot sends, in two steps shared by the
// runner and `arena bot check` (src/probe/conformance.ts):
// 1. classifyFrame: the frame (text, JSON, a DecisionResponse, the id it
//    answers). A bad frame is a `malformed` strike.
// 2. judgeAction: the action inside a good frame, shape and rules alike,
//    judged by the engine (engine/shape.ts accepts exactly what the zod
//    schemas in src/protocol/actions.ts accept). A refused action is an
//    `illegal` strike, whether its shape or a rule was wrong.
// The frame size (over MAX_FRAME_BYTES: `oversize`) is checked before both.
import { submit, type Game } from '../../engine/index';
import type { GameEvent, RejectionCode } from '../../engine/index';
import { DecisionResponseSchema, describeIssues } from '../protocol';

export type FrameVerdict =
  /** `debug`: the bot's notes as sent (unchecked; src/runner/debug-note.ts bounds them), when the frame has any. */
  | { type: 'answer'; id: number; action: unknown; debug?: unknown }
  /** The frame is not a usable answer: strike the pending decision (if any). */
  | { type: 'malformed'; detail: string }
  /** An answer to a decision already settled (timed out, struck or answered): ignored, no strike. */
  | { type: 'stale'; id: number };

/**
 * `pendingId` is the decision the seat owes now (null if none); `isPast(id)` says
 * whether an id was sent to this seat before (so a late answer is not "unknown").
 */
export function classifyFrame(
  data: Buffer | string,
  isBinary: boolean,
  pendingId: number | null,
  isPast: (id: number) => boolean,
): FrameVerdict {
  if (isBinary) return { type: 'malformed', detail: 'binary frame; answers are JSON text frames' };
  const text = typeof data === 'string' ? data : data.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { type: 'malformed', detail: `not JSON: ${preview(text)}` };
  }
  let id: number;
  let action: unknown;
  let debug: unknown;
  if (isPlainResponse(json)) {
    ({ id, action, debug } = json);
  } else {
    const parsed = DecisionResponseSchema.safeParse(json);
    if (!parsed.success)
      return { type: 'malformed', detail: `not a DecisionResponse (${describeIssues(parsed.error)})` };
    ({ id, action, debug } = parsed.data);
  }
  if (id === pendingId)
    return debug === undefined ? { type: 'answer', id, action } : { type: 'answer', id, action, debug };
  if (isPast(id)) return { type: 'stale', id };
  return {
    type: 'malformed',
    detail: `answer for unknown decision id ${id}${pendingId === null ? '' : ` (expected ${pendingId})`}`,
  };
}

function preview(text: string): string {
  const t = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  return JSON.stringify(t);
}

/**
 * A cheap sufficient check for DecisionResponseSchema (every value it passes,
 * the schema passes with the same id and action; test/runner/answer-frame.test.ts).
 * Anything else goes to the schema, which has the last word and the error message.
 */
function isPlainResponse(json: unknown): json is { id: number; action: unknown; debug?: unknown } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const id = (json as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 && Object.hasOwn(json, 'action');
}

export type ActionVerdict =
  | { type: 'applied'; events: GameEvent[] }
  /** Refused by the engine (shape or rules): an `illegal` strike. `detail` is "code: message". */
  | { type: 'illegal'; code: RejectionCode; detail: string };

/**
 * Judges the action of a well-formed answer for the seat's pending decision,
 * and applies it to `g` if it is legal (unknown fields are stripped first).
 */
export function judgeAction(g: Game, seat: number, action: unknown): ActionVerdict {
  const r = submit(g, seat, action);
  if (r.ok) return { type: 'applied', events: r.events };
  return { type: 'illegal', code: r.reason.code, detail: `${r.reason.code}: ${r.reason.message}` };
}
