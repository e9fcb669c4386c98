// `arena board`: the fixed board geometry as data (for bots in any language),
// and with --seed one match's resources and tokens.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import type { CliIO } from '../io';

export function register(program: Command, io: CliIO): void {
  program
    .command('board')
    .summary('print the board numbering, adjacency and ports; --seed for a layout')
    .description(
      "print the board: hex, vertex and edge numbering, adjacency and ports; with --seed, that seed's layout.",
    )
    .option('-s, --seed <S>', "include this seed's resources, number tokens and the bandit's start")
    .option('--json', 'print the board as JSON data (see below) instead of a drawing')
    .addHelpText(
      'after',
      `
The numbering is fixed forever (docs/rules.md, "1. The board"): hexes 0-18
row-major, vertices 0-53 sorted by (y, x), edges 0-71 sorted by (low vertex,
high vertex).

--json prints {rulesVersion, counts, hexes: [{id, row, col, center, vertices}],
  vertices: [{id, xy, neighbours, edges, hexes, port}], edges: [{id, vertices, edges}],
  ports: [{vertices, rate, resource?}], layout?: {seed, hexes: [{id, resource, token}], ports, bandit}}

Examples:
  $ arena board                      draw the numbered board
  $ arena board --json > board.json  the geometry for a bot in another language
  $ arena board --seed 42            the board a match with seed 42 is played on`,
    )
    .action(async (opts: { seed?: string; json?: boolean }) => {
      const { boardData } = await import('../../../engine/board-data');
      const { renderBoard } = await import('../../tui/render/board');
      const { lineText } = await import('../../tui/render/style');
      const data = boardData(opts.seed);
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
        return;
      }
      // Without a seed there are no resources to draw: the drawing shows vertex ids and ports, the table below the
      // hexes.
      const board = data.layout ?? {
        hexes: [],
        ports: data.ports.map((p) => ({ ...p, vertices: [p.vertices[0], p.vertices[1]] as [number, number] })),
        bandit: -1,
      };
      const lines = renderBoard({ board, roads: [], towns: [], showIds: true }, 'wide');
      const text = lines.map((l) => lineText(l).trimEnd()).join('\n');
      const legend = data.layout
        ? `Board of seed "${data.layout.seed}": each hex shows its id (h7), resource and number token (• per way to roll it, * on 6 and 8); (X) is the bandit. Ports: 2B = 2:1 brick, 3? = 3:1 any.`
        : 'Numbered board (no seed: resources and tokens are shuffled per match; give --seed to see one).';
      const hexes = data.hexes
        .map((h) => `  hex ${String(h.id).padStart(2)}: vertices ${h.vertices.join(', ')}`)
        .join('\n');
      io.stdout.write(
        `${legend}\n${text}\n\nHexes (corners clockwise from the top):\n${hexes}\n\nPorts:\n${data.ports.map((p) => `  vertices ${p.vertices[0]}-${p.vertices[1]}: ${p.rate}:1 ${p.resource ?? 'any'}`).join('\n')}\n`,
      );
    });
}
