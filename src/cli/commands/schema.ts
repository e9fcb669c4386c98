// `arena schema`: JSON Schema (draft 2020-12) of the protocol's shapes,
// generated from the zod schemas the arena itself validates with.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import type { CliIO } from '../io';
import { PUBLISHED_SCHEMA_NAMES, type PublishedSchemaName } from '../../protocol/schema-names';
import { usageError } from '../errors';

export function register(program: Command, io: CliIO): void {
  program
    .command('schema')
    .summary('print the JSON Schema of a protocol shape, or list the shapes')
    .description('print the JSON Schema (draft 2020-12) of a protocol shape, or list the shapes.')
    .argument('[name]', `one of: ${PUBLISHED_SCHEMA_NAMES.join(', ')}`)
    .option('--json', 'with no name: print the list of names as a JSON array')
    .addHelpText(
      'after',
      `
The same files are in docs/schema/<name>.json. Bot answers are described as
the arena accepts them: unknown fields are allowed (and ignored).

Examples:
  $ arena schema                          list the shapes
  $ arena schema DecisionRequest          the frame a bot receives
  $ arena schema TurnAction > turn-action.schema.json`,
    )
    .action(async (name: string | undefined, opts: { json?: boolean }) => {
      if (name === undefined) {
        io.stdout.write(
          opts.json ? `${JSON.stringify(PUBLISHED_SCHEMA_NAMES)}\n` : `${PUBLISHED_SCHEMA_NAMES.join('\n')}\n`,
        );
        return;
      }
      const match = PUBLISHED_SCHEMA_NAMES.find((n) => n.toLowerCase() === name.toLowerCase());
      if (!match) throw usageError(`no schema named "${name}"; the shapes are: ${PUBLISHED_SCHEMA_NAMES.join(', ')}`);
      const { jsonSchema } = await import('../../protocol/json-schema');
      io.stdout.write(`${JSON.stringify(jsonSchema(match as PublishedSchemaName), null, 2)}\n`);
    });
}
