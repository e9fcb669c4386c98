// The tables `arena bots list`, `keys list`, `matches` and `leaderboard` print:
// whatever a server sends (a name, a message), no control character reaches
// the terminal, and the columns stay aligned.
import { describe, expect, it } from 'vitest';
import { formatFields } from '../../src/term/fields';
import { formatTable } from '../../src/term/table';

describe('formatTable and formatFields', () => {
  it('show control characters from a server as spaces: no escape runs, no line breaks', () => {
    const evil = 'x\u001b[2J\u001b]0;owned\u0007y';
    const table = formatTable(
      ['ID', 'NAME', 'STATUS'],
      [
        ['b_1', evil, 'active'],
        ['b_2', 'two\nlines', 'paused'],
      ],
    );
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(table.split('\n')).toEqual([
      'ID   NAME              STATUS',
      'b_1  x [2J ]0;owned y  active',
      'b_2  two lines         paused',
      '',
    ]);
    expect(
      formatFields([
        ['name', evil],
        ['url', 'u'],
      ]),
    ).toBe('name: x [2J ]0;owned y\nurl:  u\n');
  });

  it('show text-direction overrides from a server as spaces, so a name cannot reorder the rest of its row', () => {
    const table = formatTable(
      ['NAME', 'RATING'],
      [
        ['\u202etob\u2066x', '25.0'],
        ['ok', '1.0'],
      ],
    );
    expect(table).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(table.split('\n')[1]).toBe(' tob x  25.0');
  });

  it('align columns by terminal width: wide (CJK) characters and emoji take two columns, combining accents none', () => {
    const table = formatTable(
      ['NAME', 'RATING'],
      [
        ['ボット', '25.0'],
        ['\u{1F916} bot', '1.0'],
        ['e\u0301cole', '3.0'],
        ['ok', '2.0'],
      ],
    );
    expect(table.split('\n')).toEqual([
      'NAME    RATING',
      'ボット  25.0',
      '\u{1F916} bot  1.0',
      'e\u0301cole   3.0',
      'ok      2.0',
      '',
    ]);
  });
});
