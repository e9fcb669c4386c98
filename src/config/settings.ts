// Where `arena api`, `arena sign` and friends get the server URL, key id and
// key file: flags, then environment, then the profile, per setting.
import { isAbsolute, resolve } from 'node:path';
import { EmptyFlagError } from './errors';
import { profilePath } from './paths';
import { ConfigError, readProfile, type Profile } from './profile';

export type Source = 'flag' | 'env' | 'profile';
export type Setting = { value: string; source: Source };
export type Settings = { url?: Setting; keyId?: Setting; keyFile?: Setting; profileFile: string };

export const ENV_VARS = { url: 'ARENA_URL', keyId: 'ARENA_KEY_ID', keyFile: 'ARENA_KEY_FILE' } as const;
const FLAGS = { url: '--url', keyId: '--key-id', keyFile: '--key' } as const;

/**
 * A setting's flag given with nothing in it (`--url ""`, an unset shell variable) is a mistake, not a request for the
 * profile's value.
 */
export function refuseEmptyFlag(name: keyof Profile, value: string | undefined): void {
  if (value !== undefined && !value.trim()) throw new EmptyFlagError(FLAGS[name]);
}

/**
 * Resolves each setting in `needed` (default: all). Settings a command does not
 * need are left out, so a damaged profile only matters when it is consulted.
 */
export function resolveSettings(
  flags: Profile,
  env: NodeJS.ProcessEnv = process.env,
  needed: ReadonlyArray<keyof Profile> = ['url', 'keyId', 'keyFile'],
): Settings {
  const profileFile = profilePath(env);
  let profile: Profile | undefined;
  const fromProfile = (): Profile => (profile ??= readProfile(profileFile));
  const pick = (name: keyof Profile): Setting | undefined => {
    const flag = flags[name];
    refuseEmptyFlag(name, flag);
    if (flag) return { value: flag, source: 'flag' };
    const fromEnv = env[ENV_VARS[name]]?.trim();
    if (fromEnv) return { value: fromEnv, source: 'env' };
    // Read lazily: a damaged profile should not break a fully flagged command.
    const stored = fromProfile()[name];
    return stored ? { value: stored, source: 'profile' } : undefined;
  };
  const url = needed.includes('url') ? pick('url') : undefined;
  return {
    url: url && { ...url, value: normalizeServerUrl(url.value, url.source) },
    keyId: needed.includes('keyId') ? pick('keyId') : undefined,
    keyFile: needed.includes('keyFile') ? pick('keyFile') : undefined,
    profileFile,
  };
}

/** An http(s) base URL without a trailing slash; anything else is a ConfigError naming where it came from. */
export function normalizeServerUrl(text: string, source: Source | 'input' = 'input'): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new ConfigError(
      `server URL ${shown(text)} (from ${describeSource(source)}) is not a URL; expected e.g. https://arena.example.com`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ConfigError(
      `server URL must be http or https, got ${text.includes('@') ? 'another scheme' : u.protocol.replace(':', '')} (from ${describeSource(source)})`,
    );
  }
  if (u.search || u.hash)
    throw new ConfigError(`server URL must not carry a query or fragment (from ${describeSource(source)})`);
  if (u.username || u.password)
    throw new ConfigError(
      `server URL must not carry credentials (from ${describeSource(source)}); arena signs requests with your key`,
    );
  return u.toString().replace(/\/+$/, '');
}

export function absoluteKeyFile(path: string, cwd: string = process.cwd()): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** Echo a bad URL back unless it might hold credentials (user:password@host). */
function shown(text: string): string {
  return text.includes('@') || (text.includes(':') && !text.includes('//'))
    ? '(hidden: may contain credentials)'
    : JSON.stringify(text);
}

function describeSource(source: Source | 'input'): string {
  return source === 'flag' ? '--url' : source === 'env' ? ENV_VARS.url : source === 'profile' ? 'the profile' : 'input';
}

export { ConfigError };
