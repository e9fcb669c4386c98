// `--plain`: one moment of the match as text, no escape codes, for pipes,
// golden files and terminals without raw mode.
import { boardSize } from './render/board';
import { chooseScale, composeScreen } from './render/screen';
import { plainText } from './render/style';
import { decisionLabel, decisionsAt, noteText } from './decision-notes';
import type { Timeline } from './timeline';
import { PLAIN_DEFAULT_WIDTH } from './plain-width';

export { PLAIN_DEFAULT_WIDTH };

export function renderPlain(
  t: Timeline,
  index: number,
  width = PLAIN_DEFAULT_WIDTH,
  opts: { showIds?: boolean } = {},
): string {
  // Tall enough for the board (either scale) beside the panels, or stacked when narrow.
  const board = boardSize(chooseScale(width, boardSize('wide').height));
  const beside = width - board.width - 2 >= 30;
  const height = beside ? board.height + 4 : board.height + 4 * t.seatCount + 11;
  return plainText(composeScreen(t, index, { width, height, showIds: opts.showIds })) + '\n' + fullNotes(t, index);
}

/** The acting bot's notes in full (the screen's line is cut to its width). */
function fullNotes(t: Timeline, index: number): string {
  let out = '';
  for (const d of decisionsAt(t, index)) {
    const note = noteText(d);
    if (note !== null) out += `note (${decisionLabel(d)}): ${note}\n`;
  }
  return out;
}
