// makeDir / makeDirSync: mkdir -p with Node's errors, that fails on a directory
// which answers ENOENT for a child (procfs) where Node's recursive mkdir spins forever.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDir, makeDirSync } from '../../src/fs/make-dir';

const root = mkdtempSync(join(tmpdir(), 'arena-make-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const variants = [
  ['makeDir', (dir: string, mode?: number) => makeDir(dir, mode)],
  ['makeDirSync', async (dir: string, mode?: number) => makeDirSync(dir, mode)],
] as const;

describe.each(variants)('%s', (name, make) => {
  const base = join(root, name);

  it('makes every missing directory, each with the mode, and accepts one already there', async () => {
    const deep = join(base, 'a', 'b', 'c');
    await make(deep, 0o700);
    for (const d of [join(base, 'a'), join(base, 'a', 'b'), deep]) expect(statSync(d).mode & 0o777).toBe(0o700);
    await make(deep, 0o700);
    await make(base);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it('fails as Node does when a file is in the way: the file itself (EEXIST) or a parent (ENOTDIR)', async () => {
    const file = join(base, 'file');
    writeFileSync(file, 'x');
    await expect(make(file)).rejects.toMatchObject({
      code: 'EEXIST',
      message: `${file} exists and is not a directory`,
    });
    await expect(make(join(file, 'sub', 'dir'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(existsSync(join(file, 'sub'))).toBe(false);
  });

  it.runIf(existsSync('/proc/self'))(
    'fails at once under /proc, where a child of an existing directory is ENOENT',
    async () => {
      await expect(make('/proc/arena-no-such-dir/data')).rejects.toMatchObject({
        code: 'ENOENT',
        path: '/proc/arena-no-such-dir',
      });
    },
  );
});
