// Names people see (bot and key names): what is refused, and that names in any
// script, emoji sequences included, are not.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BotNameSchema, KeyNameSchema } from '../../src/protocol/api';

describe('bot and key names', () => {
  it('accept names in any script, with accents, spaces and emoji sequences (zero-width joiners)', () => {
    for (const name of ['greedy v2', 'Ünïcødé bot', 'בוט חכם', 'روبوت', 'ボット', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467} family', 'a'.repeat(64), '\u{1F916}'.repeat(64)]) {
      expect(BotNameSchema.safeParse(name).success, name).toBe(true);
      expect(KeyNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it('refuse control characters, text-direction overrides and isolates, blank names, and more than 64 characters', () => {
    const refused: Array<[string, RegExp]> = [
      ['a\u001b[31mb', /control characters/],
      ['a\nb', /control characters/],
      ['a\u0085b', /control characters/],
      ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'].map((c): [string, RegExp] => [`best${c}bot`, /text-direction overrides/]),
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
    for (const schema of [BotNameSchema, KeyNameSchema]) expect(z.toJSONSchema(schema)).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
    // 64 robot faces: 64 characters, 128 UTF-16 units; a client validating with the schema sends them, so the server must take them.
    expect('\u{1F916}'.repeat(64).length).toBe(128);
    expect(BotNameSchema.safeParse('\u{1F916}'.repeat(64)).success).toBe(true);
  });
});
