import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveApp } from '../../../src/tui/live/app';
import { LiveSession } from '../../../src/tui/live/session';
import { followLive } from '../../../src/client/live';
import { applyLiveMessage, initialLiveState } from '../../../src/tui/live/state';
import { wellBehaved } from '../../support/policies';
import type { Behaviour } from '../../support/test-bot';
import { startArena, type Arena } from '../../support/serve-arena';

let arena: Arena;
// The bots hold their answers until the viewer has drawn the match live: on a
// loaded machine a fast match could otherwise end before the first frame.
let openGate!: () => void;
const gate = new Promise<void>((res) => (openGate = res));
const gated = (): Behaviour => {
  const play = wellBehaved();
  return async (ctx) => {
    await gate;
    return play(ctx);
  };
};

beforeAll(async () => {
  arena = await startArena([gated(), gated(), gated()], { deadlineMs: 60_000 });
}, 60_000);

afterAll(async () => {
  await arena?.close();
});

async function until<T>(ok: () => T | undefined | false, what: () => string, deadlineMs = 60_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = ok();
    if (v) return v;
    if (Date.now() > end) throw new Error(what());
    await new Promise((res) => setTimeout(res, 10));
  }
}

describe('arena watch: the live viewer', () => {
  it('draws the running match, stays on the final position at the end, and quits on q', async () => {
    const [id] = await arena.tick();
    const session = new LiveSession({ baseUrl: arena.url, matchId: id, follow: followLive });
    const following = session.run();
    let quit: { interrupted: boolean } | null = null;
    const r = render(
      <LiveApp session={session} width={100} height={40} colour={false} onQuit={(how) => void (quit = how)} />,
    );
    try {
      const frame = () => stripVTControlCharacters(r.lastFrame() ?? '');
      const live = await until(
        () => frame().includes('LIVE') && frame(),
        () => `never live:\n${frame()}`,
      );
      for (const name of ['bot0', 'bot1', 'bot2']) expect(live).toContain(name);
      expect(live).toMatch(/cards \d+ +dev \d+ +knights \d+\s/);
      expect(live).toMatch(/road \d+ +strikes 0/);
      expect(live).toContain(`match ${id}`);
      expect(live).not.toMatch(/true \d|B\d L\d W\d/); // no hands, no true VP: this is the public view
      openGate();

      const end = await following;
      expect(end!.status).toBe('completed');
      const final = await until(
        () => frame().includes('ENDED') && frame(),
        () => `never ended:\n${frame()}`,
      );
      expect(final).toContain('game over');
      expect(final).toContain('this is the final position');
      expect(final).toMatch(/#1 \d bot\d/);
      expect(final).toMatch(/rating [+-]\d+\.\d/);
      // It stays: nothing quits by itself.
      await new Promise((res) => setTimeout(res, 200));
      expect(quit).toBeNull();
      expect(frame()).toContain('ENDED');

      r.stdin.write('q');
      await until(
        () => quit,
        () => 'q did not quit',
      );
      expect(quit).toEqual({ interrupted: false });
    } finally {
      r.unmount();
      session.stop();
    }
  }, 120_000);

  it('the state a stream leaves matches the finished match: final view, placements, strikes, no gap', async () => {
    openGate();
    await arena.idle();
    const [id] = await arena.tick();
    const session = new LiveSession({ baseUrl: arena.url, matchId: id, follow: followLive });
    await session.run();
    const s = session.state;
    const record = (await (await fetch(`${arena.url}/matches/${id}`)).json()) as {
      players: unknown[];
      replay: Array<{ seq: number }>;
    };
    expect(s.ended!.players).toEqual(record.players);
    expect(s.lastSeq).toBe(record.replay.length - 1);
    expect(s.missed).toBe(0);
    expect(s.view!.phase).toBe('over');
    // Replaying the same messages into a fresh state is idempotent: repeats change nothing.
    let again = initialLiveState(id);
    for (const e of s.log) again = applyLiveMessage(again, { type: 'event', data: e.ev });
    const twice = s.log.reduce((st, e) => applyLiveMessage(st, { type: 'event', data: e.ev }), again);
    expect(twice.log).toEqual(again.log);
  }, 120_000);
});
