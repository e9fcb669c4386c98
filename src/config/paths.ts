// Where the CLI keeps its per-user files (profile, default key). Follows XDG so
// a user who relocates their config dirs finds arena's there too.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** $ARENA_CONFIG_DIR, else $XDG_CONFIG_HOME/arena, else ~/.config/arena. Never created here. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env.ARENA_CONFIG_DIR?.trim();
  if (own) return own;
  // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME?.trim();
  if (xdg?.startsWith('/')) return join(xdg, 'arena');
  const home = env.HOME?.trim() || homedir();
  return join(home, '.config', 'arena');
}

/**
 * The service's data directory: --data, else $ARENA_DATA_DIR, else
 * $XDG_DATA_HOME/arena, else ~/.local/share/arena. Never created here (the store does).
 */
export function dataDir(env: NodeJS.ProcessEnv = process.env, flag?: string): string {
  const given = flag?.trim();
  if (given) return given;
  const own = env.ARENA_DATA_DIR?.trim();
  if (own) return own;
  // As for XDG_CONFIG_HOME: a relative XDG_DATA_HOME is invalid and ignored.
  const xdg = env.XDG_DATA_HOME?.trim();
  if (xdg?.startsWith('/')) return join(xdg, 'arena');
  const home = env.HOME?.trim() || homedir();
  return join(home, '.local', 'share', 'arena');
}

/** The profile written by `arena login`. */
export function profilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'profile.json');
}

/** Where `arena keys generate` puts a new private key when no --out is given. */
export function defaultKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'keys', 'id_ed25519.pem');
}
