// `--web` for `arena play` and `arena replay`: starts the local games server
// (src/web-local) on 127.0.0.1, says where, and after the games keeps serving
// until Ctrl-C (SIGINT or SIGTERM).
import type { LocalGames, LocalWeb } from '../web-local/server';
import { usageError } from './errors';
import type { CliIO } from './io';

/** `--port`: 0..65535 (0, the default, picks a free port). */
export function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw usageError(`--port: expected a port number 0-65535 (0 picks a free one), got "${text}"`);
  return Number(text);
}

export interface LocalWebSession {
  games: LocalGames;
  web: LocalWeb;
  /** Keeps serving until a stop signal, then closes the server. */
  serveUntilStopped(): Promise<void>;
}

export async function startLocalWebSession(io: CliIO, port: number, path = '/'): Promise<LocalWebSession> {
  const { LocalGames, startLocalWeb } = await import('../web-local/server');
  const games = new LocalGames();
  let web: LocalWeb;
  try {
    web = await startLocalWeb(games, { port });
  } catch (err) {
    const { CliError } = await import('./errors');
    throw new CliError(
      `--web: cannot listen on 127.0.0.1:${port} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  io.stderr.write(`arena: local games at ${web.url}${path} (no account needed)\n`);
  return {
    games,
    web,
    serveUntilStopped: async () => {
      io.stderr.write(`arena: still serving ${web.url}${path}; Ctrl-C stops\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await web.close();
    },
  };
}
