// `arena rules`: the complete rules as the engine implements them
// (docs/rules.md), paged on a terminal; `--json` prints their numbers as data.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import type { CliIO } from '../io';
import { readPackageFile } from '../../docs/package-files';

export function register(program: Command, io: CliIO): void {
  program
    .command('rules')
    .summary('print the rules as the engine plays them; --json for their numbers')
    .description('print the rules of pioneers as the engine plays them (docs/rules.md); --json for their numbers.')
    .option(
      '--json',
      'print the numbers as data: costs, piece limits, VP, deck, hexes, tokens, ports, bank rates, limits, rejection codes',
    )
    .option('--no-pager', 'print straight to the terminal instead of through $PAGER (less)')
    .addHelpText(
      'after',
      `
The tables in the document are generated from the engine's constants, so they
are the numbers the engine uses. The board's geometry is \`arena board --json\`.

Examples:
  $ arena rules                                   read the rules (q quits the pager)
  $ arena rules --json | jq .costs
  $ arena rules --json | jq -r '.rejections[] | "\\(.code)\\t\\(.meaning)"'`,
    )
    .action(async (opts: { json?: boolean; pager: boolean }) => {
      const { rulesData } = await import('../../../engine/rules-data');
      const { spawnSync } = await import('node:child_process');
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(rulesData(), null, 2)}\n`);
        return;
      }
      const text = readPackageFile('docs/rules.md');
      if (opts.pager && io.stdout.isTTY) {
        const pager = io.env.PAGER?.trim() || 'less';
        // -R keeps colours, -F quits when it fits, -X leaves the text on screen.
        const r = spawnSync(pager, pager === 'less' ? ['-RFX'] : [], {
          input: text,
          stdio: ['pipe', 'inherit', 'inherit'],
          shell: pager !== 'less',
        });
        if (!r.error && r.status === 0) return;
      }
      io.stdout.write(text);
    });
}
