// POST /bots/check: the checks a bot URL goes through on registration (the
// URL policy, GET /ping, a signed upgrade), streamed one line of JSON per
// step as it happens, so the dashboard can show each one while it runs.
import { z } from 'zod';
import { BotUrlSchema, ErrorBodySchema } from './api';

export const BotCheckStepSchema = z
  .enum(['url', 'ping', 'upgrade'])
  .describe('url: the address policy; ping: GET /ping answers pong; upgrade: a signed WebSocket upgrade.');

export const BotCheckBodySchema = z.strictObject({ url: BotUrlSchema });

export const BotCheckMessageSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('step'), step: BotCheckStepSchema, status: z.enum(['running', 'passed']) }),
    z.strictObject({ type: z.literal('passed') }),
    z.strictObject({ type: z.literal('failed'), step: BotCheckStepSchema, error: ErrorBodySchema.shape.error }),
  ])
  .describe(
    'One line of the POST /bots/check stream: a step starting or passing; the last line says all passed, or which step failed and why (the error a registration would get).',
  );

export type BotCheckStep = z.infer<typeof BotCheckStepSchema>;
export type BotCheckMessage = z.infer<typeof BotCheckMessageSchema>;
