// Key files are read only when they are regular files of key size: the real
// CLI refuses everything else in one line, with exit 1, and never hangs.
import { generateKeyPairSync } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyError } from '../../src/keys/errors';
import { loadPrivateKeyFile } from '../../src/keys/keypair';
import { MAX_KEY_FILE_BYTES, readKeyFileText } from '../../src/keys/read-key-file';
import { isRoot, makeHostilePaths, runCli, type CliRun, type HostilePaths } from '../tui/hostile-files';

let paths: HostilePaths;
let huge: string;
let good: string;
const runs: Record<string, CliRun> = {};

beforeAll(async () => {
  paths = makeHostilePaths('arena-keyfile-');
  huge = paths.sparse('huge.pem', MAX_KEY_FILE_BYTES + 1);
  good = join(paths.dir, 'good.pem');
  writeFileSync(good, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), {
    mode: 0o600,
  });
  // One run first: bin/arena rebuilds a stale bundle, and an unprivileged run could not.
  runs.good = await runCli(['keys', 'public', good, '--format', 'raw']);
  const cases: Array<[string, string]> = [
    ['devZero', paths.devZero],
    ['fifo', paths.fifo],
    ['loop', paths.loop],
    ['huge', huge],
  ];
  for (let i = 0; i < cases.length; i += 2) {
    const pair = cases.slice(i, i + 2);
    const results = await Promise.all(pair.map(([, p]) => runCli(['keys', 'public', p])));
    pair.forEach(([k], j) => (runs[k] = results[j]));
  }
  runs.unreadable = await runCli(['keys', 'public', paths.unreadable], { asNobody: true });
}, 300_000);
afterAll(() => {
  rmSync(paths.dir, { recursive: true, force: true });
});

function refusedInOneLine(r: CliRun, pattern: RegExp): void {
  expect(r.signal, 'the CLI had to be killed').toBeNull();
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr.slice(0, 2000)).toHaveLength(1);
  expect(lines[0]).toMatch(/^arena: /);
  expect(lines[0]).not.toMatch(/unexpected error| {4}at /);
  expect(lines[0]).toMatch(pattern);
}

describe('arena keys public refuses what is not a key file', () => {
  it('reads a real key file', () => {
    expect(runs.good.code, runs.good.stderr).toBe(0);
    expect(runs.good.stdout).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
  });

  it('/dev/zero, which used to be read forever', () => {
    refusedInOneLine(runs.devZero, /cannot read key file \/dev\/zero: it is a character device, not a regular file/);
  });

  it('a FIFO with no writer, and a symlink loop', () => {
    refusedInOneLine(runs.fifo, /fifo\.json: it is a FIFO/);
    refusedInOneLine(runs.loop, /loop-a\.json: too many levels of symbolic links/);
  });

  it(`a file over ${MAX_KEY_FILE_BYTES} bytes (sparse, nothing written)`, () => {
    refusedInOneLine(
      runs.huge,
      new RegExp(
        `huge\\.pem: it is ${MAX_KEY_FILE_BYTES + 1} bytes; key files are at most ${MAX_KEY_FILE_BYTES} bytes`,
      ),
    );
  });

  it(`a file it may not read (EACCES${isRoot ? ', run as nobody since we are root' : ''})`, () => {
    refusedInOneLine(runs.unreadable, /unreadable\.json: permission denied/);
  });
});

describe('readKeyFileText', () => {
  it('returns the text of a key file, and KeyErrors naming the file for the rest', () => {
    expect(readKeyFileText(good)).toContain('BEGIN PRIVATE KEY');
    expect(loadPrivateKeyFile(good).asymmetricKeyType).toBe('ed25519');
    for (const p of [paths.devZero, paths.fifo, paths.loop, huge, paths.dir, join(paths.dir, 'missing.pem')]) {
      expect(() => readKeyFileText(p)).toThrow(KeyError);
      expect(() => loadPrivateKeyFile(p)).toThrow(
        new RegExp(`cannot read key file ${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
      );
    }
    expect(() => readKeyFileText(paths.dir)).toThrow(/it is a directory/);
    expect(() => readKeyFileText(join(paths.dir, 'missing.pem'))).toThrow(/no such file/);
  });
});
