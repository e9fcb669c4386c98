// Preloaded with `node --import` by lazy-load.test.ts: records the URL of
// every module the ESM loader loads (our bundle's files and the packages it
// imports) in the file named by $ARENA_TRACE_FILE.
import { register } from 'node:module';

register('./trace-hooks.mjs', import.meta.url);
