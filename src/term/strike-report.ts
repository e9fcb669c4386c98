// `arena play --verbose`: each strike as it happens, for the bots' owner:
//   strike: game 3 m-...-0003, turn 12, seat 2 mybot: illegal on a turn decision (strike 1 of 3)
//     why: not_affordable: a city costs 3 ore and 2 grain
//     answer (52 bytes): {"id":57,"action":{"type":"build_city","vertex":3}}
// The answer is the bot's own frame (its first 200 bytes), so it can reveal the
// bot's hand: it goes to the owner's terminal, never into a replay or a stream.
import type { TournamentStrike } from '../arena/tournament';
import { ANSWER_PREVIEW_BYTES, STRIKES_TO_RESIGN } from '../runner/index';
import { visible } from '../text/visible';

/**
 * The lines for one strike, without a trailing newline. Everything a bot sent is shown with control characters escaped.
 */
export function strikeReport(s: TournamentStrike): string {
  const k = s.strike;
  const lines = [
    `strike: game ${s.game} ${s.matchId}, ${k.turn === 0 ? 'setup' : `turn ${k.turn}`}, seat ${k.seat} ${visible(s.botName)}: ` +
      `${k.reason} on a ${k.kind} decision (strike ${k.strikes} of ${STRIKES_TO_RESIGN}${k.strikes >= STRIKES_TO_RESIGN ? ': resigned' : ''})`,
    `  why: ${visible(k.detail)}`,
  ];
  if (k.answer !== undefined) {
    const size = k.answerBytes ?? Buffer.byteLength(k.answer);
    lines.push(
      `  answer (${size > ANSWER_PREVIEW_BYTES ? `first ${ANSWER_PREVIEW_BYTES} of ` : ''}${size} bytes): ${visible(k.answer)}`,
    );
  }
  return lines.join('\n');
}
