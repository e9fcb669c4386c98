// `arena bots strikes BOT`: the owner's strike log from the server, in the
// same words as `arena play --verbose` (strike-report.ts):
//   2026-11-27T10:00:00.000Z m_abc, turn 12, seat 2: illegal on a turn decision 57 (strike 1 of 3)
//     why: not_affordable: a city costs 3 ore and 2 grain
//     answer (52 bytes): {"id":57,"action":{"type":"build_city","vertex":3}}
// What the bot sent is shown with control characters escaped.
import type { BotStrike } from '../protocol/owner';
import { ANSWER_PREVIEW_BYTES, STRIKES_TO_RESIGN } from '../runner/index';
import { visible } from '../text/visible';

export function strikeLogText(strikes: BotStrike[]): string {
  return strikes
    .map((k) => {
      const lines = [
        `${k.at} ${k.matchId}, ${k.turn === 0 ? 'setup' : `turn ${k.turn}`}, seat ${k.seat}: ` +
          `${k.reason} on a ${k.kind} decision ${k.decisionId} (strike ${k.strikes} of ${STRIKES_TO_RESIGN}${k.strikes >= STRIKES_TO_RESIGN ? ': resigned' : ''})`,
        `  why: ${k.code ? `${k.code}: ` : ''}${visible(k.message)}`,
      ];
      if (k.answer !== undefined) {
        const size = k.answerBytes ?? Buffer.byteLength(k.answer);
        lines.push(
          `  answer (${size > ANSWER_PREVIEW_BYTES ? `first ${ANSWER_PREVIEW_BYTES} of ` : ''}${size} bytes): ${visible(k.answer)}`,
        );
      }
      return lines.join('\n') + '\n';
    })
    .join('');
}
