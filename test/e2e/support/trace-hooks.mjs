// Module loader hooks (run on the loader thread): append each loaded URL to $ARENA_TRACE_FILE.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  const result = await next(url, context);
  if (process.env.ARENA_TRACE_FILE) appendFileSync(process.env.ARENA_TRACE_FILE, `${url}\n`);
  return result;
}
