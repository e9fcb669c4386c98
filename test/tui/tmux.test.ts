// The viewer in a real terminal: tmux runs `arena replay`, we send keys and
// read the screen back with capture-pane, then quit and check it exited cleanly.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_4P, REPO_ROOT, fixtureTimeline } from './helpers';
import { firstEventOfTurn } from '../../src/tui/timeline';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const session = `arena-tui-${process.pid}`;
let dir: string;
let sock: string;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
}
function screen(): string {
  return tmux('capture-pane', '-p', '-t', session);
}
async function screenWhere(ok: (s: string) => boolean, what: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const s = screen();
    if (ok(s)) return s;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`the terminal never showed ${what}; screen:\n${screen()}`);
}

describe.skipIf(!hasTmux)('arena replay in tmux (100x30)', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-tui-tmux-'));
    sock = join(dir, 'tmux.sock');
    const done = join(dir, 'exit-code');
    // The shell records the exit code, then waits so we can read the screen after quitting.
    // CI runs set CI=true, under which Ink draws no live frames: a person's terminal has no CI variable.
    const cmd = `cd ${REPO_ROOT} && env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 node bin/arena replay ${FIXTURE_4P}; echo $? > ${done}; echo EXITED; sleep 30`;
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', cmd);
  });
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the match, steps through it with keys, and quits cleanly', async () => {
    const t = fixtureTimeline(FIXTURE_4P);
    const start = await screenWhere((s) => s.includes('event 1/'), 'the first event');
    expect(start).toContain('setup');
    expect(start).toContain('space play');
    expect(start).toContain(t.names[0]);
    // NO_COLOR is set: bold, dim and inverse remain, but no colour is ever set.
    const styled = tmux('capture-pane', '-p', '-e', '-t', session);
    const codes = [...styled.matchAll(/\x1b\[([0-9;]*)m/g)].flatMap((m) => m[1].split(';'));
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.filter((c) => /^(3[0-8]|9[0-7]|4[0-8]|10[0-7])$/.test(c))).toEqual([]);

    tmux('send-keys', '-t', session, 'Right', 'Right');
    await screenWhere((s) => s.includes('event 3/'), 'event 3 after two → presses');

    tmux('send-keys', '-t', session, 'g', '2', '0', 'Enter');
    const t20 = await screenWhere((s) => s.includes('turn 20 '), 'turn 20 after g 20 Enter');
    expect(t20).toContain(`event ${firstEventOfTurn(t, 20) + 1}/`);
    expect(t20).toMatch(/\(\d\)/); // settlements on the board

    tmux('send-keys', '-t', session, 'Down');
    await screenWhere((s) => s.includes('turn 21 '), 'turn 21 after ↓');

    tmux('send-keys', '-t', session, 'End');
    await screenWhere((s) => s.includes('game over'), 'the end of the match');

    tmux('send-keys', '-t', session, 'q');
    const after = await screenWhere((s) => s.includes('EXITED'), 'the viewer exiting');
    // The alternate screen is gone: the shell's screen is back, without the viewer's frame.
    expect(after).not.toContain('space play');
    const done = join(dir, 'exit-code');
    expect(existsSync(done)).toBe(true);
    expect(readFileSync(done, 'utf8').trim()).toBe('0');
  });

  it('with CI set in a real terminal, prints the plain rendering and says why instead of a blank screen', async () => {
    const ciSession = `${session}-ci`;
    const cmd = `cd ${REPO_ROOT} && CI=true NO_COLOR=1 node bin/arena replay ${FIXTURE_4P}; echo EXITED; sleep 30`;
    tmux('new-session', '-d', '-s', ciSession, '-x', '100', '-y', '40', cmd);
    let shown = '';
    for (let i = 0; i < 300 && !shown.includes('EXITED'); i++) {
      await new Promise((res) => setTimeout(res, 50));
      shown = tmux('capture-pane', '-p', '-t', ciSession);
    }
    expect(shown).toContain('CI is set in the environment');
    expect(shown).toContain('event 1/');
    expect(shown).not.toContain('space play');
  });
});
