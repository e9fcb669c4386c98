// The one rule for every name the service stores and shows (bot names, key
// names, handles): what a person reads on a leaderboard or in a key list must
// be what is there. The API validates with the schemas in api.ts, which all
// apply nameProblem; the CLI checks with the same schemas before it sends.
//
// Refused, beyond length (the schemas) and what displayName's patterns say:
//  - format characters (Unicode category Cf: zero-width spaces and joiners,
//    soft hyphens, word joiners, BOMs, tags): invisible, so two names that
//    look the same differ. One exception: U+200D between two pictographs,
//    which joins an emoji sequence (a family, a profession) into one picture;
//  - unpaired surrogates: not text at all (JSON carries them, UTF-8 cannot);
//  - blank-looking names: only spaces, Hangul fillers, blank braille and
//    combining marks;
//  - more than MAX_MARKS_IN_A_ROW combining marks on one character: stacks
//    that spill over the lines above and below ("zalgo" text).

/** Combining marks (Unicode M) one character may carry: enough for any language's accents. */
export const MAX_MARKS_IN_A_ROW = 2;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const DIRECTION = /[\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const FORMAT = /\p{Cf}/u;
// An emoji sequence's joiner: a pictograph (with its variation selector or skin tone), U+200D, a pictograph.
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\ufe0f\u{1f3fb}-\u{1f3ff}]?)\u200d(?=\p{Extended_Pictographic})/gu;
// Characters that show nothing of their own: white space, Hangul fillers, the blank braille pattern, marks.
const SHOWS_NOTHING = /[\s\p{Z}\p{M}\u115f\u1160\u3164\uffa0\u2800]/gu;
const MARK_STACK = new RegExp(`\\p{M}{${MAX_MARKS_IN_A_ROW + 1},}`, 'u');

export const NAME_RULE_TEXT = `no control characters, text-direction overrides or other invisible format characters (Unicode Cf), no unpaired surrogates, not blank-looking, at most ${MAX_MARKS_IN_A_ROW} combining marks on one character`;

/** Why `name` is not a name people can be shown, or null when it is. Length is the schema's to check. */
export function nameProblem(name: string): string | null {
  if (CONTROL.test(name)) return 'must not contain control characters (tabs, line breaks, escape sequences)';
  if (DIRECTION.test(name)) return 'must not contain text-direction overrides (U+202A-202E, U+2066-2069)';
  if (LONE_SURROGATE.test(name)) return 'must not contain unpaired surrogates (U+D800-DFFF alone): not valid text';
  const format = FORMAT.exec(name.replace(EMOJI_JOINER, ''));
  if (format)
    return `must not contain invisible format characters such as U+${format[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} (Unicode category Cf: zero-width spaces and joiners, soft hyphens)`;
  if (name.replace(SHOWS_NOTHING, '') === '') return 'must not be blank (only spaces, fillers or combining marks)';
  if (MARK_STACK.test(name)) return `must not stack more than ${MAX_MARKS_IN_A_ROW} combining marks on one character`;
  return null;
}
