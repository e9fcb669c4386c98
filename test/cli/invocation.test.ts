// The hints arena prints (`arena replay DIR`) must run when pasted back.
import { describe, expect, it } from 'vitest';
import { arenaCommand, shellWord } from '../../src/cli/invocation';

const io = (env: NodeJS.ProcessEnv, launcher: string, cwd = '/home/ada/proj') => ({
  env,
  argv: ['/usr/bin/node', launcher],
  cwd,
});

describe('how arena was run', () => {
  it("is `npx arena` under npx / npm exec / npm run (the bin is not on the user's PATH)", () => {
    expect(
      arenaCommand(
        io(
          { npm_command: 'exec', PATH: '/home/ada/proj/node_modules/.bin:/usr/bin' },
          '/home/ada/proj/node_modules/.bin/arena',
        ),
      ),
    ).toBe('npx arena');
    expect(arenaCommand(io({ npm_command: 'run-script' }, '/home/ada/proj/bin/arena'))).toBe('npx arena');
  });

  it('is `arena` when the launcher was found on PATH (a global install)', () => {
    expect(arenaCommand(io({ PATH: '/usr/local/bin:/usr/bin' }, '/usr/local/bin/arena'))).toBe('arena');
  });

  it('is `node <path>` when the launcher was run by path, relative to the working directory when inside it', () => {
    expect(arenaCommand(io({ PATH: '/usr/bin' }, '/home/ada/proj/bin/arena'))).toBe('node bin/arena');
    expect(arenaCommand(io({ PATH: '/usr/bin' }, '/opt/bot arena/bin/arena'))).toBe("node '/opt/bot arena/bin/arena'");
  });

  it('quotes words only when the shell needs it', () => {
    expect(shellWord('arena-demo/m-1.json')).toBe('arena-demo/m-1.json');
    expect(shellWord("my runs/it's")).toBe(`'my runs/it'\\''s'`);
  });
});
