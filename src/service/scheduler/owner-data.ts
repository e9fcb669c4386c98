// What each seated bot's owner alone may see of a finished match (its notes
// and its strikes with what it sent), taken from the runner's result before
// the public record loses its notes (withoutNotes).
import type { DecisionNote, StrikeDetail } from '../../protocol/index';
import type { MatchResult, StrikeRecord } from '../../runner/index';
import type { OwnerMatchData } from '../store/types';

/** The strike as the owner's log shows it: the engine's code apart from its message. */
export function strikeDetail(s: StrikeRecord): StrikeDetail {
  const prefix = s.code !== undefined ? `${s.code}: ` : null;
  const message = prefix && s.detail.startsWith(prefix) ? s.detail.slice(prefix.length) : s.detail;
  return {
    decisionId: s.decisionId,
    kind: s.kind,
    turn: s.turn,
    seat: s.seat,
    reason: s.reason,
    ...(s.code !== undefined ? { code: s.code } : {}),
    message,
    ...(s.answer !== undefined ? { answer: s.answer, answerBytes: s.answerBytes ?? Buffer.byteLength(s.answer) } : {}),
    strikes: s.strikes,
  };
}

/** Per seated bot with a note or a strike: its private data (bots with neither get none). */
export function ownerDataOf(result: MatchResult, endedAt: string): Map<string, OwnerMatchData> {
  const out = new Map<string, OwnerMatchData>();
  for (const seat of result.seats) {
    const notes = (result.match.decisions ?? []).filter(
      (d): d is DecisionNote => d.seat === seat.seat && d.debug !== undefined,
    );
    const strikes = seat.strikeLog.map(strikeDetail);
    if (notes.length > 0 || strikes.length > 0) out.set(seat.botId, { endedAt, notes, strikes });
  }
  return out;
}
