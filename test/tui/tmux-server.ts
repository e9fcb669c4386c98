// A private tmux server (its own socket) for the tests that drive a command
// in a real terminal, and a wait for what its screen shows.
import { execFileSync, spawnSync } from 'node:child_process';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** A shell prefix that makes a command run as a person's would: not in CI mode, no colours. */
export const PERSON = 'env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1';

export function tmuxServer(sock: string, deadlineMs: number) {
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
  /** Polls window `name` until `ok` holds for its screen; fails naming `what` and showing the last screen. */
  async function screenWhere(name: string, ok: (s: string) => boolean, what: string): Promise<string> {
    const end = Date.now() + deadlineMs;
    for (;;) {
      const s = tmux('capture-pane', '-p', '-t', name);
      if (ok(s)) return s;
      if (Date.now() > end) throw new Error(`the terminal never showed ${what}; screen:\n${s}`);
      await new Promise((res) => setTimeout(res, 25));
    }
  }
  return { tmux, screenWhere, kill: () => void spawnSync('tmux', ['-S', sock, 'kill-server']) };
}
