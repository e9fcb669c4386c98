// `arena replay` shows the acting bot's decision under the event: its time
// and the bot's own note (DecisionResponse.debug), from a record that
// `arena play --out` wrote; key d hides and shows notes; --plain prints them in full.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTournament } from '../../src/arena/tournament';
import { initialState, reduceKey } from '../../src/tui/controls';
import { decisionsAt } from '../../src/tui/decision-notes';
import { loadRecord } from '../../src/arena/load';
import { renderPlain } from '../../src/tui/plain';
import { composeScreen, helpOverlay } from '../../src/tui/render/screen';
import { plainText } from '../../src/tui/render/style';
import { buildTimeline, type Timeline } from '../../src/tui/timeline';
import { legalPlayer } from '../support/policies';
import { startTestBot, type TestBot } from '../support/test-bot';

let dir: string;
let bot: TestBot;
let t: Timeline;
let noted: { seat: number; seq: number; id: number };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-tui-notes-'));
  const play = legalPlayer();
  // Every answer carries a note naming its decision, with an escape sequence a terminal must not act on.
  bot = await startTestBot({
    behaviour: (ctx) =>
      ctx.socket.send(
        JSON.stringify({
          id: ctx.request.id,
          action: play(ctx.request.view, ctx.request.kind, ctx.request.matchId),
          debug: `plan for ${ctx.request.id}\u001b[31m`,
        }),
      ),
  });
  await runTournament({
    bots: [
      { id: 'noter', name: 'noter', source: { type: 'ws', url: bot.url } },
      { id: 'r1', name: 'r1', source: { type: 'builtin', bot: 'random' } },
      { id: 'r2', name: 'r2', source: { type: 'builtin', bot: 'random' } },
    ],
    games: 1,
    seats: 3,
    seed: 'tui-notes',
    platformKey: generateKeyPairSync('ed25519').privateKey,
    outDir: dir,
    deadlineMs: 2000,
  });
  const { record } = await loadRecord(dir);
  t = buildTimeline(record);
  const seat = record.players.find((p) => p.botId === 'noter')!.seat;
  // A turn decision of the noting bot that led to an action event of its seat.
  const d = record.decisions!.find((x) => x.seat === seat && x.kind === 'turn' && record.replay[x.seq]?.seat === seat)!;
  noted = { seat, seq: d.seq, id: d.id };
}, 60_000);

afterAll(async () => {
  await bot.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('decision notes in arena replay', () => {
  it('the record arena play wrote keeps the notes and times of the noting bot only', () => {
    const ds = t.decisions!;
    expect(ds.filter((d) => d.debug !== undefined).every((d) => d.seat === noted.seat)).toBe(true);
    expect(ds.filter((d) => d.seat === noted.seat).every((d) => d.debug === `plan for ${d.id}\u001b[31m`)).toBe(true);
    expect(decisionsAt(t, noted.seq).map((d) => d.id)).toEqual([noted.id]);
  });

  it('--plain shows the decision line under the event and the note in full, control characters escaped', () => {
    const text = renderPlain(t, noted.seq, 120);
    const lines = text.split('\n');
    expect(lines[2]).toMatch(
      new RegExp(`^  seat ${noted.seat} · turn · \\d+ ms  note: plan for ${noted.id}\\\\u001b\\[31m`),
    );
    expect(text).toContain(`note (seat ${noted.seat} · turn · `);
    expect(text).not.toContain('\u001b');
  });

  it('key d hides and shows the note; the help overlay names the key', () => {
    const s0 = initialState(noted.seq);
    expect(s0.showNotes).toBe(true);
    const s1 = reduceKey(t, s0, 'd', {});
    expect(s1.showNotes).toBe(false);
    const hidden = plainText(composeScreen(t, noted.seq, { width: 120, height: 40, showNotes: s1.showNotes }));
    expect(hidden.split('\n')[2]).toMatch(/ms {2}\(note hidden: d\)$/);
    expect(hidden).not.toContain('plan for');
    expect(reduceKey(t, s1, 'd', {}).showNotes).toBe(true);
    expect(plainText(helpOverlay())).toMatch(/d\s+show \/ hide the bot's notes/);
  });

  it("a built-in seat's event shows its decision's time and no note", () => {
    const other = t.decisions!.find((d) => d.seat !== noted.seat && t.events[d.seq]?.seat === d.seat)!;
    const line = renderPlain(t, other.seq, 120).split('\n')[2];
    expect(line).toMatch(new RegExp(`^  seat ${other.seat} · ${other.kind} · \\d+ ms$`));
  });
});
