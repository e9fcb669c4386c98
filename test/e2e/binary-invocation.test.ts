// The hints arena prints name the single executable as it can be run again.
import { describe, expect, it } from 'vitest';
import { arenaCommand } from '../../src/cli/invocation';

// In the executable argv[0] is its own path; npm's variables do not make it `npx arena`.
const io = (path: string, env: NodeJS.ProcessEnv, cwd = '/home/ada/proj') => ({ env, argv: [path, path], cwd });

describe('how the single executable was run', () => {
  it('is its name when PATH finds it', () => {
    expect(
      arenaCommand(io('/usr/local/bin/arena', { PATH: '/usr/local/bin:/usr/bin', npm_command: 'exec' }), true),
    ).toBe('arena');
  });

  it('is its path otherwise, ./relative inside the working directory, never `node ...`', () => {
    expect(arenaCommand(io('/home/ada/proj/dist/arena-linux-x64', { PATH: '/usr/bin' }), true)).toBe(
      './dist/arena-linux-x64',
    );
    expect(arenaCommand(io('/opt/bot arena/arena', { PATH: '/usr/bin' }), true)).toBe("'/opt/bot arena/arena'");
  });
});
