// The match log's line reader: lines crossing its 1 MiB read chunks, multibyte
// characters split between chunks, a torn tail, and byte offsets that point
// back at each line.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLine, scanLines } from '../../../src/service/store/match-files';

describe('match log lines', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'arena-lines-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads every complete line with its byte range, across chunk boundaries', async () => {
    const lines: string[] = [];
    let rnd = 12345;
    const next = () => (rnd = (rnd * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 400; i++) {
      const len = i % 50 === 7 ? 300_000 + (next() % 500_000) : next() % 3000;
      // Three-byte and four-byte characters land on chunk edges somewhere.
      lines.push(`${i}:` + [...'ab€🎲'.repeat(Math.ceil(len / 4))].slice(0, len).join(''));
    }
    lines.push('');
    const file = join(dir, 'log');
    const body = lines.map((l) => `${l}\n`).join('');
    await writeFile(file, `${body}{"torn`);
    const fh = await open(file, 'r');
    try {
      const size = (await fh.stat()).size;
      expect(size).toBeGreaterThan(3 * (1 << 20));
      const seen: { text: string; off: number; len: number }[] = [];
      const end = await scanLines(fh, size, (text, off, len) => seen.push({ text, off, len }));
      expect(end).toBe(Buffer.byteLength(body));
      expect(seen.map((s) => s.text)).toEqual(lines);
      for (const s of [seen[0], seen[7], seen[157], seen[399], seen[400]]) {
        const buf = Buffer.alloc(s.len);
        await fh.read(buf, 0, s.len, s.off);
        expect(buf.toString('utf8')).toBe(s.text);
      }
      const last = await lastLine(fh, end);
      expect(last).toEqual(seen[seen.length - 1]);
      const before = await lastLine(fh, seen[seen.length - 1].off);
      expect(before).toEqual(seen[seen.length - 2]);
      expect(await lastLine(fh, 0)).toBeNull();
    } finally {
      await fh.close();
    }
  });
});
