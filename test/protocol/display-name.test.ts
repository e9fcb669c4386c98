// Names people see (bot and key names): what is refused, and that names in any
// script, emoji sequences included, are not.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import fc from 'fast-check';
import { BotNameSchema, HandleSchema, KeyNameSchema } from '../../src/protocol/api';
import { MAX_MARKS_IN_A_ROW, nameProblem } from '../../src/protocol/names';

/** No lone surrogate: encodeURIComponent throws on one (an oracle independent of names.ts). */
function wellFormed(s: string): boolean {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

describe('bot and key names', () => {
  it('accept names in any script, with accents, spaces and emoji sequences (zero-width joiners)', () => {
    for (const name of [
      'greedy v2',
      'Ünïcødé bot',
      'בוט חכם',
      'روبوت',
      'ボット',
      '\u{1F468}\u200D\u{1F469}\u200D\u{1F467} family',
      'a'.repeat(64),
      '\u{1F916}'.repeat(64),
    ]) {
      expect(BotNameSchema.safeParse(name).success, name).toBe(true);
      expect(KeyNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it('refuse control characters, text-direction overrides and isolates, blank names, and more than 64 characters', () => {
    const refused: Array<[string, RegExp]> = [
      ['a\u001b[31mb', /control characters/],
      ['a\nb', /control characters/],
      ['a\u0085b', /control characters/],
      ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'].map(
        (c): [string, RegExp] => [`best${c}bot`, /text-direction overrides/],
      ),
      ['   ', /blank/],
      ['', /./],
      ['a'.repeat(65), /<=64 characters/],
      ['\u{1F916}'.repeat(65), /<=64 characters/],
    ];
    for (const [name, why] of refused) {
      for (const schema of [BotNameSchema, KeyNameSchema]) {
        const r = schema.safeParse(name);
        expect(r.success, JSON.stringify(name)).toBe(false);
        expect(r.error!.issues[0].message).toMatch(why);
      }
    }
  });

  it('count characters as the published JSON Schema does (maxLength: code points), not UTF-16 units', () => {
    for (const schema of [BotNameSchema, KeyNameSchema])
      expect(z.toJSONSchema(schema)).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
    // 64 robot faces: 64 characters, 128 UTF-16 units; a client validating with the schema sends them, so the server
    // must take them.
    expect('\u{1F916}'.repeat(64).length).toBe(128);
    expect(BotNameSchema.safeParse('\u{1F916}'.repeat(64)).success).toBe(true);
  });

  it('refuse names that look like nothing or like something else (issue 27): format characters, lone surrogates, blank-looking, mark stacks', () => {
    const refused: Array<[string, RegExp]> = [
      ['best\u200Bbot', /format characters such as U\+200B/],
      ['\u200B', /format characters/],
      ['bot\u00AD', /U\+00AD/],
      ['\uFEFFbot', /U\+FEFF/],
      ['a\u2060b', /U\+2060/],
      ['a\u200Db', /U\+200D/],
      ['a\u200Cb', /U\+200C/],
      ['flag\u{E0067}', /U\+E0067/],
      ['\u3164', /blank/],
      ['\u115F\u1160', /blank/],
      ['\uFFA0 \u3164', /blank/],
      ['\u2800\u2800', /blank/],
      ['\u3000\u00A0', /blank/],
      ['\u0301\u0302', /blank/],
      ['bot\uD800', /unpaired surrogates/],
      ['\uDC00bot', /unpaired surrogates/],
      ['\uDFFF\uD800', /unpaired surrogates/],
      ['z\u0301\u0302\u0303', /more than 2 combining marks/],
      ['Z\u0336\u0336\u0336\u0336\u0336ALGO', /more than 2 combining marks/],
    ];
    for (const [name, why] of refused) {
      for (const schema of [BotNameSchema, KeyNameSchema]) {
        const r = schema.safeParse(name);
        expect(r.success, JSON.stringify(name)).toBe(false);
        expect(
          r.error!.issues.map((i) => i.message),
          JSON.stringify(name),
        ).toHaveLength(1);
        expect(r.error!.issues[0].message).toMatch(why);
      }
      expect(nameProblem(name), JSON.stringify(name)).toMatch(why);
    }
    // Still fine: two marks on a letter (Vietnamese), a pictograph with its variation selector and skin tone, joined
    // emoji.
    for (const name of [
      'Nguy\u1EC5n',
      'e\u0302\u0301 bot',
      '\u2764\uFE0F bot',
      '\u{1F44B}\u{1F3FD}',
      '\u{1F469}\u{1F3FD}\u200D\u{1F4BB} dev',
      'x\u3164y',
    ]) {
      expect(BotNameSchema.safeParse(name).success, JSON.stringify(name)).toBe(true);
    }
    expect(HandleSchema.safeParse('ok_name').success).toBe(true);
  });

  it('property: a name is refused exactly when it has a format character (outside an emoji join), a lone surrogate, a mark stack, or shows nothing', () => {
    const interesting = fc.constantFrom(
      'a',
      'Z',
      ' ',
      '\u00A0',
      '\u3000',
      '\u3164',
      '\u115F',
      '\u1160',
      '\uFFA0',
      '\u2800',
      '\u0301',
      '\u0302',
      '\u0336',
      '\uFE0F',
      '\u200B',
      '\u200C',
      '\u200D',
      '\u00AD',
      '\uFEFF',
      '\u2060',
      '\uD800',
      '\uDC00',
      '\u{1F916}',
      '\u{1F469}',
      '\u{1F3FD}',
      'é',
      'ж',
      'ボ',
    );
    const nameArb = fc
      .array(fc.oneof(interesting, fc.string({ unit: 'binary', minLength: 1, maxLength: 2 })), {
        minLength: 1,
        maxLength: 12,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(nameArb, (name) => {
        // eslint-disable-next-line no-control-regex
        fc.pre(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(name) && [...name].length <= 64);
        const withoutEmojiJoins = name.replace(
          /(?<=\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu,
          '',
        );
        const expectRefused =
          /\p{Cf}/u.test(withoutEmojiJoins) ||
          !wellFormed(name) ||
          new RegExp(`\\p{M}{${MAX_MARKS_IN_A_ROW + 1}}`, 'u').test(name) ||
          name.replace(/[\s\p{Z}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/gu, '') === '';
        const r = BotNameSchema.safeParse(name);
        expect(r.success, JSON.stringify(name)).toBe(!expectRefused);
        expect(KeyNameSchema.safeParse(name).success).toBe(r.success);
        expect(nameProblem(name) === null).toBe(r.success);
      }),
      { numRuns: 500 },
    );
  });
});
