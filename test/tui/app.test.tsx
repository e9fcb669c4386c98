// The Ink viewer driven by keys, as a user would: what each frame shows.
import type React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplayApp } from '../../src/tui/app';
import { firstEventOfTurn } from '../../src/tui/timeline';
import { FIXTURE_4P, FIXTURE_TALK, fixtureTimeline } from './helpers';

const KEYS = { right: '\u001B[C', left: '\u001B[D', up: '\u001B[A', down: '\u001B[B', enter: '\r', escape: '\u001B' };

type Rendered = ReturnType<typeof render>;
let mounted: Rendered[] = [];
afterEach(() => {
  for (const r of mounted) r.unmount();
  mounted = [];
});

function mount(el: React.ReactElement): Rendered {
  const r = render(el);
  mounted.push(r);
  return r;
}

/**
 * Resolves when `ok()` holds, checking after every turn of the event loop; gives up after a generous deadline (a busy
 * machine is slow, not wrong).
 */
async function until<T>(ok: () => T | undefined | false, what: () => string, deadlineMs = 20_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = ok();
    if (v) return v;
    if (Date.now() > end) throw new Error(what());
    await new Promise((res) => setTimeout(res, 5));
  }
}

/** Waits until the frame satisfies `ok` (Ink renders asynchronously after input). */
function frameWhere(r: Rendered, ok: (frame: string) => boolean, what: string): Promise<string> {
  return until(
    () => {
      const f = r.lastFrame() ?? '';
      return ok(f) && f;
    },
    () => `frame never showed ${what}; last frame:\n${r.lastFrame()}`,
  );
}

async function press(r: Rendered, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    r.stdin.write(k);
    // Let Ink parse each key on its own, as typed.
    await new Promise((res) => setImmediate(res));
  }
}

const t = fixtureTimeline(FIXTURE_4P);

describe('ReplayApp', () => {
  it('opens on the empty board with all panels, the log and the key footer', async () => {
    const r = mount(<ReplayApp timeline={t} width={100} height={30} />);
    const f = await frameWhere(r, (x) => x.includes('event 1/'), 'the header');
    expect(f).toContain('setup');
    for (const name of t.names) expect(f).toContain(name);
    expect(f).toContain('match starts: 4 seats');
    expect(f).toContain('space play');
    expect(f).toContain('q quit');
    expect(f).not.toContain('(0)');
  });

  it('steps one event with → and back with ←, showing the build on the board', async () => {
    const r = mount(<ReplayApp timeline={t} width={100} height={30} />);
    await frameWhere(r, (x) => x.includes('event 1/'), 'event 1');
    const firstBuild = t.events.findIndex((e) => e.kind === 'build');
    await press(r, ...Array.from({ length: firstBuild }, () => KEYS.right));
    const f = await frameWhere(r, (x) => x.includes(`event ${firstBuild + 1}/`), `event ${firstBuild + 1}`);
    const seat = t.events[firstBuild].seat!;
    expect(f).toContain(`(${seat})`);
    expect(f).toMatch(/▶.*built a settlement/);
    await press(r, KEYS.left, KEYS.left);
    const back = await frameWhere(r, (x) => x.includes(`event ${firstBuild - 1}/`), 'two events back');
    expect(back).toMatch(/▶.*match starts/);
  });

  it('moves a turn with ↓ and ↑, and jumps to a typed turn with g', async () => {
    const r = mount(<ReplayApp timeline={t} width={100} height={30} initialIndex={firstEventOfTurn(t, 5)} />);
    await frameWhere(r, (x) => x.includes('turn 5 '), 'turn 5');
    await press(r, KEYS.down);
    const f6 = await frameWhere(r, (x) => x.includes('turn 6 '), 'turn 6');
    expect(f6).toMatch(/▶.*rolled/);
    await press(r, KEYS.up, KEYS.up);
    await frameWhere(r, (x) => x.includes('turn 4 '), 'turn 4');
    await press(r, 'g');
    await frameWhere(r, (x) => x.includes('jump to turn:'), 'the turn prompt');
    await press(r, '1', '2', KEYS.enter);
    const f12 = await frameWhere(r, (x) => x.includes('turn 12 '), 'turn 12');
    expect(f12).toContain(`event ${firstEventOfTurn(t, 12) + 1}/`);
  });

  it("jumps to a seat's next action with s and a digit", async () => {
    const r = mount(<ReplayApp timeline={t} width={100} height={30} initialIndex={firstEventOfTurn(t, 3)} />);
    await frameWhere(r, (x) => x.includes('turn 3 '), 'turn 3');
    const from = firstEventOfTurn(t, 3);
    const target = t.events.findIndex((e, i) => i > from && e.kind === 'action' && e.seat === 2);
    await press(r, 's');
    await frameWhere(r, (x) => x.includes('next action of seat'), 'the seat prompt');
    await press(r, '2');
    const f = await frameWhere(r, (x) => x.includes(`event ${target + 1}/`), `event ${target + 1}`);
    expect(f).toMatch(/▶.*seat 2 .*→/);
  });

  it('opens at the end with the final VP, awards and the game-over line', async () => {
    const last = t.events.length - 1;
    const r = mount(<ReplayApp timeline={t} width={100} height={30} initialIndex={last} />);
    const f = await frameWhere(r, (x) => x.includes(`event ${last + 1}/${last + 1}`), 'the last event');
    expect(f).toContain('game over');
    const final = t.frames[last];
    const winner = t.outcome!.placements.indexOf(1);
    expect(f).toContain(`#1 ${winner} ${t.names[winner]}`);
    for (let s = 0; s < t.seatCount; s++) expect(f).toContain(`VP ${final.scores[s]} (true ${final.seats[s].trueVp})`);
    if (final.awards.longestRoad !== null) expect(f).toContain('ROAD');
  });

  it('plays and pauses with space, and changes speed with [ and ]', async () => {
    const r = mount(<ReplayApp timeline={t} width={100} height={30} />);
    await frameWhere(r, (x) => x.includes('paused (4/s)'), 'paused at 4/s');
    await press(r, ']', ']', ']', ']', ']', ']', ']');
    await frameWhere(r, (x) => x.includes('paused (128/s)'), 'the top speed');
    await press(r, ' ');
    await frameWhere(r, (x) => /event ([3-9]|\d\d+)\//.test(x) && x.includes('playing 128/s'), 'playback moving');
    await press(r, ' ');
    const paused = await frameWhere(r, (x) => x.includes('paused (128/s)'), 'paused again');
    const at = paused.match(/event (\d+)\//)![1];
    await press(r, '[');
    const slower = await frameWhere(r, (x) => x.includes('paused (64/s)'), 'slower');
    expect(slower).toContain(`event ${at}/`);
  });

  it('shows help with ? and closes it with any key', async () => {
    const r = mount(<ReplayApp timeline={t} width={100} height={30} />);
    await frameWhere(r, (x) => x.includes('event 1/'), 'start');
    await press(r, '?');
    const help = await frameWhere(r, (x) => x.includes('press any key to close'), 'the help');
    expect(help).toContain('(n) settlement');
    await press(r, 'x');
    await frameWhere(r, (x) => !x.includes('press any key to close') && x.includes('space play'), 'the board again');
  });

  it('labels the board with ids when i is pressed', async () => {
    const r = mount(<ReplayApp timeline={t} width={100} height={30} />);
    await frameWhere(r, (x) => x.includes('event 1/'), 'start');
    expect(r.lastFrame()).not.toContain('#7');
    await press(r, 'i');
    const f = await frameWhere(r, (x) => x.includes('#7'), 'hex ids');
    expect(f).toMatch(/[X#]18/);
  });

  it('quits with q, and with Ctrl-C as an interruption', async () => {
    for (const [key, interrupted] of [
      ['q', false],
      ['\u0003', true],
    ] as const) {
      let quit: { interrupted: boolean } | null = null;
      const r = mount(
        <ReplayApp
          timeline={t}
          width={100}
          height={30}
          onQuit={(how) => {
            quit = how;
          }}
        />,
      );
      await frameWhere(r, (x) => x.includes('event 1/'), 'start');
      await press(r, key);
      expect(
        await until(
          () => quit,
          () => `${JSON.stringify(key)} did not quit`,
        ),
      ).toEqual({ interrupted });
    }
  });

  it('fits 80x24: no line wider than 80, fewer than 24 lines', async () => {
    const r = mount(<ReplayApp timeline={t} width={80} height={24} initialIndex={firstEventOfTurn(t, 40)} />);
    const f = await frameWhere(r, (x) => x.includes('turn 40'), 'turn 40');
    const lines = f.split('\n');
    expect(lines.length).toBeLessThan(24);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(f).toContain('VP');
    expect(f).toContain('·');
  });
});

describe('table talk, strikes and resignation in the panels and log', () => {
  const talk = fixtureTimeline(FIXTURE_TALK);
  const chatty = talk.names.indexOf('chatty');

  it('shows talk in quotes and trades as trades', async () => {
    const i = talk.events.findIndex((e) => e.kind === 'talk');
    const r = mount(<ReplayApp timeline={talk} width={100} height={34} initialIndex={i} />);
    const f = await frameWhere(r, (x) => x.includes(`event ${i + 1}/`), 'the talk event');
    expect(f).toMatch(/▶.*says “no deal”/);
    expect(f).toMatch(/offer .* for .* to everyone/);
  });

  it('shows an open offer between the panels and the log while it waits for answers', async () => {
    const i = talk.frames.findIndex((f) => f.openTrade !== null);
    const offer = talk.frames[i].openTrade!;
    const r = mount(<ReplayApp timeline={talk} width={100} height={34} initialIndex={i} />);
    const f = await frameWhere(r, (x) => x.includes(`event ${i + 1}/`), 'the offer');
    expect(f).toContain(`open offer: seat ${offer.from} gives`);
    expect(f).toMatch(/▶.*offer .* for .* to everyone/);
  });

  it('shows strikes as they accrue and RESIGNED after the third', async () => {
    const resign = talk.events.findIndex((e) => e.kind === 'resign');
    const r = mount(<ReplayApp timeline={talk} width={100} height={34} initialIndex={resign} />);
    const f = await frameWhere(r, (x) => x.includes(`event ${resign + 1}/`), 'the resignation');
    expect(f).toContain('RESIGNED');
    expect(f).toContain('strikes 3');
    expect(f).toMatch(new RegExp(`▶.*seat ${chatty} \\(chatty\\) resigned`));
  });
});
