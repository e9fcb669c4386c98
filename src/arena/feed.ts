// `arena replay REF --feed URL --seat S`: sends one seat's recorded requests,
// in order, to a running bot over a real WebSocket (the runner's seat: the
// same signed handshake, frame limits and answer parsing), and compares each
// answer with the one recorded. A bot that is deterministic given its input
// can use this as a regression test, or be stepped through under a debugger.
import { isDeepStrictEqual } from 'node:util';
import type { KeyObject } from 'node:crypto';
import { parseAnswer } from '../../engine/index';
import { judgeAction } from '../runner/answer-frame';
import { WsSeat } from '../runner/ws-seat';
import type { RecordedAnswer, RecordedRequest } from './recorded-requests';

export interface FeedOptions {
  url: string;
  matchId: string;
  platformKey: KeyObject;
  /**
   * How long to wait for each answer (a bot under a debugger may be slow); the frame still says its recorded
   * deadlineMs.
   */
  waitMs: number;
  /** Called after each decision (progress). */
  onDecision?: (d: FedDecision) => void;
}

/** What the bot answered now: an action, or why there was none (the strike the runner would give). */
export type NewAnswer = { type: 'action'; action: unknown } | { type: 'none'; reason: string; detail: string };

export interface FedDecision {
  request: RecordedRequest;
  answer: NewAnswer;
  /**
   * agree, differ, or not comparable (the recorded answer was struck for time or connection, so there is nothing to
   * compare).
   */
  result: 'agree' | 'differ' | 'skipped';
  /** For differ: in words. */
  why?: string;
}

export interface FeedReport {
  decisions: number;
  agreed: number;
  differed: number;
  skipped: number;
  firstDifference: FedDecision | null;
}

/** The bot could not be reached for the first request: nothing was compared. */
export class FeedConnectError extends Error {}

export async function feedSeat(requests: readonly RecordedRequest[], opts: FeedOptions): Promise<FeedReport> {
  const seat = new WsSeat({ url: opts.url, matchId: opts.matchId, platformKey: opts.platformKey });
  const report: FeedReport = { decisions: 0, agreed: 0, differed: 0, skipped: 0, firstDifference: null };
  try {
    for (const request of requests) {
      const got = await seat.ask(request.id, request.frame, opts.waitMs);
      if (!got.ok && got.reason === 'dropped' && report.decisions === 0)
        throw new FeedConnectError(`the bot gave no answer to the first request: ${got.detail}`);
      const answer: NewAnswer = got.ok
        ? { type: 'action', action: got.action }
        : { type: 'none', reason: got.reason, detail: got.detail };
      const d = compare(request, answer);
      report.decisions++;
      if (d.result === 'agree') report.agreed++;
      else if (d.result === 'skipped') report.skipped++;
      else {
        report.differed++;
        report.firstDifference ??= d;
      }
      opts.onDecision?.(d);
    }
  } finally {
    await seat.close();
  }
  return report;
}

/** Compares a new answer with the recorded one, as the engine reads answers (unknown fields stripped). */
export function compare(request: RecordedRequest, answer: NewAnswer): FedDecision {
  const recorded = request.answer;
  if (recorded.type === 'resigned') return { request, answer, result: 'skipped' };
  if (recorded.type === 'strike' && recorded.reason !== 'illegal' && recorded.reason !== 'malformed') {
    // Late, dropped, oversize: what the bot meant is not in the record.
    return { request, answer, result: 'skipped' };
  }
  if (answer.type === 'none') {
    const same = recorded.type === 'strike' && recorded.reason === answer.reason;
    return same
      ? { request, answer, result: 'agree' }
      : { request, answer, result: 'differ', why: `no usable answer now (${answer.reason}: ${answer.detail})` };
  }
  if (recorded.type === 'strike') {
    // Recorded illegal: the new answer agrees when the engine refuses it with the same code.
    if (recorded.reason === 'illegal' && request.game) {
      const v = judgeAction(request.game, request.seat, answer.action);
      if (v.type === 'illegal' && v.code === recorded.code) return { request, answer, result: 'agree' };
      return {
        request,
        answer,
        result: 'differ',
        why: v.type === 'illegal' ? `illegal now with ${v.code}` : 'legal now',
      };
    }
    return { request, answer, result: 'differ', why: 'a usable answer now' };
  }
  const parsed = parseAnswer(request.kind, answer.action);
  if (!parsed.ok)
    return {
      request,
      answer,
      result: 'differ',
      why: `not a ${request.kind} answer now (${parsed.code}: ${parsed.message})`,
    };
  return isDeepStrictEqual(plain(parsed.action), plain(recorded.action))
    ? { request, answer, result: 'agree' }
    : { request, answer, result: 'differ', why: 'another action' };
}

/** As JSON sees it (frozen canonical objects and parsed ones compare alike). */
function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x ?? null));
}

/** A recorded answer in words, for the report. */
export function describeRecorded(a: RecordedAnswer): string {
  if (a.type === 'action') return JSON.stringify(a.action);
  if (a.type === 'resigned') return '(resigned: no frame)';
  return `(struck: ${a.reason}${a.code ? ` ${a.code}` : ''}; the default was played)`;
}

export function describeNew(a: NewAnswer): string {
  return a.type === 'action' ? JSON.stringify(a.action) : `(no usable answer: ${a.reason}: ${a.detail})`;
}
