// Types of the record header parts, without building the schemas (for the browser bundle's helpers).
import type { z } from 'zod';
import type { DecisionEntrySchema } from './match-header';

export type DecisionEntry = z.infer<typeof DecisionEntrySchema>;
