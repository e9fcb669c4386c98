// The viewer in a real terminal: tmux runs `arena replay`, we send keys and
// read the screen back with capture-pane, then quit and check how it exited.
// Every step waits until the whole expected screen is there (header, board,
// panels, footer): Ink may draw a frame in several writes, and a busy machine
// is slow, so a capture taken as soon as one part appears can miss another.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_4P, REPO_ROOT, fixtureTimeline } from '../tui/helpers';
import { firstEventOfTurn } from '../../src/tui/timeline';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const session = `arena-tui-${process.pid}`;
/** Generous: the suite may share two cores with other work. */
const SCREEN_DEADLINE_MS = 40_000;
let dir: string;
let sock: string;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
}
function screen(target = session): string {
  return tmux('capture-pane', '-p', '-t', target);
}
/** Polls the pane until `ok` holds for one whole capture, or fails after the deadline showing the last screen. */
async function screenWhere(ok: (s: string) => boolean, what: string, target = session): Promise<string> {
  const end = Date.now() + SCREEN_DEADLINE_MS;
  for (;;) {
    const s = screen(target);
    if (ok(s)) return s;
    if (Date.now() > end) throw new Error(`the terminal never showed ${what}; screen:\n${s}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

/** A complete viewer frame at the given event: header, the seat panels, and the key footer. */
function fullFrame(s: string, event: number, names: readonly string[]): boolean {
  return (
    s.includes(`event ${event}/`) &&
    s.includes('space play') &&
    s.includes('q quit') &&
    names.every((n) => s.includes(n))
  );
}

/**
 * Waits for the command in the pane to end: the shell writes its exit code to
 * a file, then waits on `read`, so the pane stays up to be read (no sleep).
 */
async function exited(target: string): Promise<{ code: number; text: string }> {
  const file = join(dir, `${target}.code`);
  const end = Date.now() + SCREEN_DEADLINE_MS;
  for (;;) {
    const written = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (/^\d+\n$/.test(written)) return { code: Number(written), text: screen(target) };
    if (Date.now() > end) throw new Error(`the command never ended; screen:\n${screen(target)}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

/** Starts `arena replay` in a new tmux session. */
function startViewer(name: string, env: string, extra = '', rows = 30): void {
  const cmd = `cd ${REPO_ROOT} && ${env} node bin/arena replay ${FIXTURE_4P} ${extra}; echo $? > ${join(dir, `${name}.code`)}; read _`;
  tmux('new-session', '-d', '-s', name, '-x', '100', '-y', String(rows), cmd);
}

describe.skipIf(!hasTmux)('arena replay in tmux (100x30)', () => {
  const t = hasTmux ? fixtureTimeline(FIXTURE_4P) : null!;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-tui-tmux-'));
    sock = join(dir, 'tmux.sock');
  });
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  });

  // CI runs set CI=true, under which Ink draws no live frames: a person's terminal has no CI variable.
  const PERSON = 'env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1';

  it('opens the match, steps through it with keys, and quits cleanly with q (exit 0)', async () => {
    startViewer(session, PERSON);
    const start = await screenWhere((s) => fullFrame(s, 1, t.names) && s.includes('setup'), 'the whole first frame');
    expect(start).toContain('match starts');
    // NO_COLOR is set: bold, dim and inverse remain, but no colour is ever set.
    const styled = tmux('capture-pane', '-p', '-e', '-t', session);
    const codes = [...styled.matchAll(/\x1b\[([0-9;]*)m/g)].flatMap((m) => m[1].split(';'));
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.filter((c) => /^(3[0-8]|9[0-7]|4[0-8]|10[0-7])$/.test(c))).toEqual([]);

    tmux('send-keys', '-t', session, 'Right', 'Right');
    await screenWhere((s) => fullFrame(s, 3, t.names), 'event 3 after two → presses');

    tmux('send-keys', '-t', session, 'g', '2', '0', 'Enter');
    const at20 = firstEventOfTurn(t, 20) + 1;
    const t20 = await screenWhere(
      (s) => fullFrame(s, at20, t.names) && s.includes('turn 20 '),
      'turn 20 after g 20 Enter',
    );
    expect(t20).toMatch(/\(\d\)/); // settlements on the board

    tmux('send-keys', '-t', session, 'Down');
    await screenWhere(
      (s) => fullFrame(s, firstEventOfTurn(t, 21) + 1, t.names) && s.includes('turn 21 '),
      'turn 21 after ↓',
    );

    tmux('send-keys', '-t', session, 'End');
    await screenWhere((s) => fullFrame(s, t.events.length, t.names) && s.includes('game over'), 'the end of the match');

    tmux('send-keys', '-t', session, 'q');
    const after = await exited(session);
    expect(after.code).toBe(0);
    // The alternate screen is gone: the shell's screen is back, without the viewer's frame.
    expect(after.text).not.toContain('space play');
  }, 180_000);

  it('a record piped into stdin (-) still gets the viewer: keys come from the terminal, as with less', async () => {
    const name = `${session}-pipe`;
    const cmd = `cd ${REPO_ROOT} && cat ${FIXTURE_4P} | ${PERSON} node bin/arena replay -; echo $? > ${join(dir, `${name}.code`)}; read _`;
    tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '30', cmd);
    await screenWhere((s) => fullFrame(s, 1, t.names), 'the whole first frame', name);
    tmux('send-keys', '-t', name, 'End');
    await screenWhere(
      (s) => fullFrame(s, t.events.length, t.names) && s.includes('game over'),
      'the end of the match after End',
      name,
    );
    tmux('send-keys', '-t', name, 'q');
    const after = await exited(name);
    expect(after.code).toBe(0);
    expect(after.text).not.toContain('space play');
  }, 120_000);

  it('Ctrl-C quits as an interruption: exit 130, the terminal restored', async () => {
    const name = `${session}-int`;
    startViewer(name, PERSON, '--turn 5');
    await screenWhere((s) => fullFrame(s, firstEventOfTurn(t, 5) + 1, t.names), 'the frame at turn 5', name);
    tmux('send-keys', '-t', name, 'C-c');
    const after = await exited(name);
    expect(after.code).toBe(130);
    expect(after.text).not.toContain('space play');
    expect(after.text).not.toMatch(/unexpected error| {4}at /);
  }, 120_000);

  it('SIGTERM (a closing terminal, kill) also leaves the alternate screen and exits 130', async () => {
    const name = `${session}-term`;
    startViewer(name, PERSON);
    await screenWhere((s) => fullFrame(s, 1, t.names), 'the first frame', name);
    // The pane runs a shell, which runs node: signal node itself.
    const shell = tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim();
    const node = execFileSync('pgrep', ['-P', shell, 'node'], { encoding: 'utf8' }).trim().split('\n')[0];
    process.kill(Number(node), 'SIGTERM');
    const after = await exited(name);
    expect(after.code).toBe(130);
    expect(after.text).not.toContain('space play');
  }, 120_000);

  it('with CI set in a real terminal, prints the plain rendering and says why instead of a blank screen', async () => {
    const name = `${session}-ci`;
    startViewer(name, 'env CI=true NO_COLOR=1', '', 60);
    const { code, text } = await exited(name);
    expect(code).toBe(0);
    expect(text).toContain('CI is set in the environment');
    expect(text).toContain('event 1/');
    expect(text).not.toContain('space play');
  }, 120_000);
});
