// The SSE parser against the WHATWG rules, and against any chunking: a
// stream split at every possible place (inside a line, between CR and LF,
// inside a UTF-8 character) gives the same events as the whole stream.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseEventTooLarge, SseParser, type SseEvent } from '../../src/client/sse';

function parseAll(chunks: Array<string | Uint8Array>, end = true): { events: SseEvent[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const c of chunks) parser.push(c);
  if (end) parser.end();
  return { events, parser };
}

describe('SSE parser', () => {
  it('reads the arena stream: named events, ids that persist, JSON data', () => {
    const { events, parser } = parseAll([
      'event: snapshot\ndata: {"seq":-1}\n\n',
      'id: 0\nevent: event\ndata: {"seq":0}\n\n',
      'event: view\ndata: {"seq":0}\n\n',
    ]);
    expect(events).toEqual([
      { type: 'snapshot', data: '{"seq":-1}', lastEventId: '' },
      { type: 'event', data: '{"seq":0}', lastEventId: '0' },
      { type: 'view', data: '{"seq":0}', lastEventId: '0' },
    ]);
    expect(parser.lastEventId).toBe('0');
  });

  it('follows the standard: CRLF, CR and LF line ends, BOM, comments, one space dropped, multi-line data, fields without colon', () => {
    const { events } = parseAll(['\ufeff: comment\r\ndata:a\r\ndata:  b\rdata\n\nevent:x\ndata: 1\n\n']);
    expect(events).toEqual([
      { type: 'message', data: 'a\n b\n', lastEventId: '' },
      { type: 'x', data: '1', lastEventId: '' },
    ]);
  });

  it('ignores an id holding NUL, a retry that is not all digits, unknown fields, and events with no data', () => {
    const { events, parser } = parseAll([
      'id: 5\ndata: a\n\nid: 6\u00007\nretry: 12x\nfoo: bar\ndata: b\n\nevent: empty\n\nretry: 2500\n\n',
    ]);
    expect(events.map((e) => [e.data, e.lastEventId])).toEqual([
      ['a', '5'],
      ['b', '5'],
    ]);
    expect(parser.retryMs).toBe(2500);
  });

  it('drops an event the stream ended before finishing, and a lone id line sets the id for later', () => {
    const { events, parser } = parseAll(['data: done\n\nid: 9\n\ndata: half']);
    expect(events.map((e) => e.data)).toEqual(['done']);
    expect(parser.lastEventId).toBe('9');
  });

  it('any chunking of the bytes gives the same events', () => {
    const text =
      '\ufeffid: 1\r\nevent: event\r\ndata: {"talk":"é✓ 𝄞"}\r\n\r\n: keep-alive\n\nevent: view\rdata: x\r\rdata: line1\ndata: line2\n\n';
    const bytes = new TextEncoder().encode(text);
    const whole = parseAll([bytes]).events;
    expect(whole.map((e) => e.type)).toEqual(['event', 'view', 'message']);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        const chunks = at.slice(1).map((end, i) => bytes.subarray(at[i], end));
        expect(parseAll(chunks).events).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});

describe('SSE parser limits', () => {
  it('an event up to the limit is read, in any chunking; one past it throws, whether one long line or many data lines', () => {
    const events: SseEvent[] = [];
    const fits = new SseParser((e) => events.push(e), 100);
    // A 90-character line fed one character at a time: scanned once each, still one event.
    for (const c of `data: ${'a'.repeat(90)}\n\n`) fits.push(c);
    expect(events).toEqual([{ type: 'message', data: 'a'.repeat(90), lastEventId: '' }]);

    const longLine = new SseParser(() => {}, 100);
    expect(() => longLine.push(`data: ${'b'.repeat(120)}`)).toThrow(SseEventTooLarge);

    const manyLines = new SseParser(() => {}, 100);
    expect(() => {
      for (let i = 0; i < 20; i++) manyLines.push('data: 0123456789\n');
    }).toThrow(/an event over 100 characters/);
  });
});
