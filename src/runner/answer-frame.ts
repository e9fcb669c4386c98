// Classifies one frame a bot sent, against the decision the seat owes (if any).
// Pure: the socket layer decides what to do with the verdict.
import { DecisionResponseSchema, describeIssues } from '../protocol';

export type FrameVerdict =
  | { type: 'answer'; id: number; action: unknown }
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
  if (isPlainResponse(json)) {
    ({ id, action } = json);
  } else {
    const parsed = DecisionResponseSchema.safeParse(json);
    if (!parsed.success) return { type: 'malformed', detail: `not a DecisionResponse (${describeIssues(parsed.error)})` };
    ({ id, action } = parsed.data);
  }
  if (id === pendingId) return { type: 'answer', id, action };
  if (isPast(id)) return { type: 'stale', id };
  return { type: 'malformed', detail: `answer for unknown decision id ${id}${pendingId === null ? '' : ` (expected ${pendingId})`}` };
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
function isPlainResponse(json: unknown): json is { id: number; action: unknown } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const id = (json as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 && Object.prototype.hasOwnProperty.call(json, 'action');
}
