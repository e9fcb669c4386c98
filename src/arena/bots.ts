// Turns `arena play` bot arguments into named entrants. A bot is a URL
// (http, https, ws, wss) or a built-in (`builtin:random`, `builtin:greedy`, `builtin:search`),
// optionally named: `alice=http://127.0.0.1:8080`.
import { BUILTIN_BOTS, type BuiltinBotName } from '../../engine/bots/names';
import type { SeatSource } from '../runner/index';

/** The engine's list of built-in bots is the only one; everything else derives from it. */
export type BuiltinName = BuiltinBotName;
export const BUILTIN_NAMES: readonly BuiltinName[] = BUILTIN_BOTS;

/** Where a seat's answers come from: the runner's SeatSource. */
export type BotSource = SeatSource;

export interface ArenaBot {
  /** Unique within the tournament; also the botId in match records. */
  id: string;
  name: string;
  source: BotSource;
}

/** Bad user input (bot arguments, options): the CLI shows the message as a usage error. */
export class ArenaInputError extends Error {
  override readonly name = 'ArenaInputError';
}

const NAME_RE = /^[A-Za-z0-9_.@+#-]{1,64}$/;
const BOT_SCHEMES = ['http:', 'https:', 'ws:', 'wss:'];

export function sourceLabel(source: BotSource): string {
  return source.type === 'builtin' ? `builtin:${source.bot}` : source.url;
}

export function isBuiltinName(name: string): name is BuiltinName {
  return (BUILTIN_NAMES as readonly string[]).includes(name);
}

/**
 * Hides the user-info part of anything URL-like (`http://user:pass@host` ->
 * `http://***@host`), so an error message never repeats a password.
 */
export function redactCredentials(text: string): string {
  return text.replace(/(\/\/)[^/?#\s]*@/g, '$1***@');
}

/**
 * Checks one bot URL: http, https, ws or wss, with a host and no user name or
 * password. Credentials in a bot URL would end up in summaries, JSON output
 * and messages; the arena authenticates itself with a signed handshake instead.
 * Throws ArenaInputError with a message that never repeats the credentials.
 */
export function parseBotUrl(text: string, label = text): URL {
  const shown = redactCredentials(label);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ArenaInputError(`"${shown}" is not a bot URL; give e.g. http://127.0.0.1:8080`);
  }
  if (!BOT_SCHEMES.includes(url.protocol)) {
    const hint = missingSchemeHint(text);
    if (hint) throw new ArenaInputError(`"${shown}" has no scheme; ${hint}`);
    throw new ArenaInputError(
      `bot URL "${shown}" has scheme ${url.protocol.replace(/:$/, '')}; use http, https, ws or wss`,
    );
  }
  if (url.username || url.password) {
    throw new ArenaInputError(
      `bot URL "${shown}" carries a user name or password; remove them: the arena signs its handshake with the platform key instead`,
    );
  }
  if (!url.hostname) throw new ArenaInputError(`bot URL "${shown}" has no host`);
  return url;
}

/**
 * `localhost:8080` or `127.0.0.1:8080/ws`: a host and port without a scheme.
 * URL reads the first as scheme "localhost" and refuses the second, so name
 * the URL that was meant instead. Null when the text is not of that form.
 */
function missingSchemeHint(text: string): string | null {
  const t = text.trim();
  if (!/^[^\s/:@=]+:\d{1,5}(\/\S*)?$/.test(t) || !URL.canParse(`http://${t}`)) return null;
  return `did you mean http://${t} ?`;
}

/** Parses one argument; throws ArenaInputError saying what is wrong and what is accepted. */
export function parseBotArg(arg: string): { name?: string; source: BotSource } {
  const text = arg.trim();
  if (!text)
    throw new ArenaInputError('empty bot argument; give a URL such as http://127.0.0.1:8080 or builtin:random');
  // `name=spec`: the part before the first "=" is a name only if it is not
  // itself the start of a URL (URLs may carry "=" in their query).
  const eq = text.indexOf('=');
  if (eq > 0 && !text.slice(0, eq).includes(':') && !text.slice(0, eq).includes('/')) {
    const name = text.slice(0, eq);
    if (!NAME_RE.test(name)) throw new ArenaInputError(`bad bot name "${name}": use 1-64 letters, digits or _.@+#-`);
    return { name, source: parseSource(text.slice(eq + 1), arg) };
  }
  return { source: parseSource(text, arg) };
}

function parseSource(spec: string, arg: string): BotSource {
  if (spec.startsWith('builtin:')) {
    const bot = spec.slice('builtin:'.length);
    if (!isBuiltinName(bot)) {
      throw new ArenaInputError(
        `unknown built-in bot "${bot}" in "${arg}"; choose ${BUILTIN_NAMES.map((b) => `builtin:${b}`).join(' or ')}`,
      );
    }
    return { type: 'builtin', bot };
  }
  if (!URL.canParse(spec)) {
    const hint = missingSchemeHint(spec) ?? (isBuiltinName(spec) ? `did you mean builtin:${spec} ?` : null);
    if (hint) throw new ArenaInputError(`"${redactCredentials(arg)}" is neither a URL nor a built-in bot; ${hint}`);
    throw new ArenaInputError(
      `"${redactCredentials(arg)}" is neither a URL nor a built-in bot; give e.g. http://127.0.0.1:8080 or builtin:random`,
    );
  }
  parseBotUrl(spec, arg);
  return { type: 'ws', url: spec };
}

/** Default display name: the built-in's name, or host:port of the URL. */
export function defaultName(source: BotSource): string {
  if (source.type === 'builtin') return source.bot;
  const url = new URL(source.url);
  return url.port ? `${url.hostname}:${url.port}` : url.hostname;
}

/** Parses every argument and makes names unique (`random`, `random#2`, ...). */
export function parseBotArgs(args: readonly string[]): ArenaBot[] {
  const parsed = args.map(parseBotArg);
  const taken = new Set<string>();
  for (const p of parsed) {
    if (p.name === undefined) continue;
    if (taken.has(p.name)) throw new ArenaInputError(`bot name "${p.name}" is given twice; names must be unique`);
    taken.add(p.name);
  }
  return parsed.map((p) => {
    if (p.name !== undefined) return { id: p.name, name: p.name, source: p.source };
    const base = defaultName(p.source);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}#${n}`;
    taken.add(name);
    return { id: name, name, source: p.source };
  });
}

/**
 * Completes a field too small for the table with built-in random bots, so
 * `arena play http://...` alone gives a real game. Returns the added bots.
 */
export function fillWithRandom(bots: readonly ArenaBot[], seats: number): ArenaBot[] {
  const taken = new Set(bots.map((b) => b.name));
  const added: ArenaBot[] = [];
  while (bots.length + added.length < seats) {
    let name = 'random';
    for (let n = 2; taken.has(name); n++) name = `random#${n}`;
    taken.add(name);
    added.push({ id: name, name, source: { type: 'builtin', bot: 'random' } });
  }
  return added;
}
