// JSON Schema (draft 2020-12) of the protocol's shapes, generated from the
// zod schemas: `arena schema` prints them and docs/schema/ ships them.
import { z } from 'zod';
import {
  BanditActionSchema,
  DiscardActionSchema,
  SetupActionSchema,
  TradeResponseSchema,
  TurnActionSchema,
} from './actions';
import { DecisionRequestSchema, DecisionResponseSchema } from './frames';
import { PublicMatchEventSchema } from './events';
import { MatchEventSchema, MatchRecordSchema, MatchSchema } from './match';
import { PUBLISHED_SCHEMA_NAMES, type PublishedSchemaName } from './schema-names';
import { PioneersViewSchema } from './view';

export { PUBLISHED_SCHEMA_NAMES, type PublishedSchemaName };

/** Every published shape, by the name the spec gives it. */
export const PUBLISHED_SCHEMAS = {
  DecisionRequest: DecisionRequestSchema,
  DecisionResponse: DecisionResponseSchema,
  PioneersView: PioneersViewSchema,
  SetupAction: SetupActionSchema,
  TurnAction: TurnActionSchema,
  DiscardAction: DiscardActionSchema,
  BanditAction: BanditActionSchema,
  TradeResponse: TradeResponseSchema,
  Match: MatchSchema,
  MatchRecord: MatchRecordSchema,
  MatchEvent: MatchEventSchema,
  PublicMatchEvent: PublicMatchEventSchema,
} as const satisfies Record<PublishedSchemaName, z.ZodType>;

/**
 * The JSON Schema of one shape. Answers a bot sends are described as the
 * schema accepts them on input (unknown fields are stripped, not refused).
 */
export function jsonSchema(name: PublishedSchemaName): Record<string, unknown> {
  const schema = z.toJSONSchema(PUBLISHED_SCHEMAS[name], {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  });
  return { title: name, ...schema };
}
