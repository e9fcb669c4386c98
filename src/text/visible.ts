// Text from outside (a bot, a server, the command line) shown on a terminal:
// control characters become \uXXXX escapes, so an ESC sequence in a bot's talk,
// a server's error message or an argument is seen, never acted on. Text-direction
// overrides and isolates (U+202A-202E, U+2066-2069) count as control characters:
// they would show what follows them on the line reordered.

/** Past ASCII's C0 range: DEL, the C1 controls, and the direction overrides and isolates. */
const OTHER_CONTROLS = '\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[\\u0000-\\u001f${OTHER_CONTROLS}]`, 'g');
/** The same but for tab and line feed. */
const CONTROL_BUT_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${OTHER_CONTROLS}]`, 'g');

/** Every control character escaped. */
export function visible(text: string): string {
  return text.replace(CONTROL, escapeControl);
}

/** Every control character replaced by `by` (one column each, so laid-out text keeps its width). */
export function replaceControls(text: string, by: string): string {
  return text.replace(CONTROL, by);
}

/** The same, but keeping line breaks and tabs (multi-line messages). */
export function visibleLines(text: string): string {
  return text.replace(CONTROL_BUT_LINES, escapeControl);
}

function escapeControl(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
