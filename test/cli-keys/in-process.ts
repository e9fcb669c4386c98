// Runs the real commander program (buildProgram/main from src/cli/main.ts) in
// this process, capturing stdout/stderr and the exit code. Spawning costs over
// a second per run on the shared machine, so edge cases use this and only the
// main paths spawn `node bin/arena` (see run-arena.ts).
import { main } from '../../src/cli/main';
import type { RunResult } from './run-arena';

const OWN_ENV = ['HOME', 'XDG_CONFIG_HOME', 'ARENA_CONFIG_DIR', 'ARENA_URL', 'ARENA_KEY_ID', 'ARENA_KEY_FILE'];

export async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const savedEnv = Object.fromEntries(OWN_ENV.map((k) => [k, process.env[k]]));
  for (const k of OWN_ENV) delete process.env[k];
  Object.assign(process.env, env);
  const out = process.stdout.write;
  const err = process.stderr.write;
  let stdout = '';
  let stderr = '';
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += chunk.toString()), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true)) as typeof process.stderr.write;
  const savedCode = process.exitCode;
  process.exitCode = undefined;
  try {
    await main(['node', 'arena', ...args]);
    return { code: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = savedCode;
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
