// The bot URL policy (spec: Bot url; issue 9, "Bots and URL safety"), shared
// by `arena serve` at registration and the runner at every connect.
//
// One check: parse the URL, judge its form, resolve its host ONCE, judge every
// address, and hand back the first one. Callers then connect through
// pinnedLookup(address), so what was checked is what is reached (a name that
// answers public now and loopback a moment later gets nowhere).
//
// Decisions beyond the spec:
// - Fragments are rejected, not stripped: a fragment is never sent to the bot,
//   so one in a registered URL is a mistake the owner should see.
// - Whitespace and control characters are rejected rather than left to the
//   URL parser's silent trimming; port 0 is rejected.
// - Production passes only plain global unicast: 6to4, Teredo, NAT64 local-use,
//   ORCHID, AS112, AMT and IPv6 outside 2000::/3 are all refused. IPv6 forms
//   carrying an IPv4 address are judged by that address: IPv4-mapped and NAT64
//   (64:ff9b::/96) of a public IPv4 pass; the deprecated IPv4-compatible form
//   never does. A mapped address is pinned as the plain IPv4 it carries.
// - Development allows any scheme of the four and any address a TCP connection
//   can go to; it still refuses credentials, multicast, broadcast and
//   unspecified addresses, and still resolves once and pins.
// - Messages name the host and the address (the owner needs them); they never
//   repeat the URL's path or query. `reason` is a short code safe to show anyone.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressText, assessAddress, describeAddress, rangeWords, type AddressClass } from './address-class';
import { pinnedLookup } from './pinned-lookup';

export {
  assessAddress,
  classifyAddress,
  describeAddress,
  rangeWords,
  addressText,
  type AddressClass,
  type EmbeddingForm,
} from './address-class';
export { pinnedLookup };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Answers every address of a host name, in the resolver's order. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface AddressPolicy {
  /** Production: https/wss and public addresses only. */
  production: boolean;
  /** Defaults to systemResolver (getaddrinfo, all addresses, resolver order). */
  resolve?: Resolver;
  /** A resolution that takes longer is a rejection. Default 5000 ms. */
  resolveTimeoutMs?: number;
}

export const MAX_URL_LENGTH = 2048;
export const DEFAULT_RESOLVE_TIMEOUT_MS = 5000;

/** Short machine reasons of UrlRejected. */
export type UrlRejectReason =
  | 'url_too_long'
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'https_required'
  | 'credentials_in_url'
  | 'fragment_in_url'
  | 'missing_host'
  | 'invalid_port'
  | 'resolve_failed'
  | 'resolve_timeout'
  | 'no_address'
  | 'address_not_allowed';

export class UrlRejected extends Error {
  readonly code = 'url_rejected';
  override readonly name = 'UrlRejected';
  constructor(
    /** A short code (UrlRejectReason) that names nothing about the URL. */
    readonly reason: string,
    message: string,
    /** For address rejections: the refused address and its range. */
    readonly detail?: { address: string; range: string },
  ) {
    super(message);
  }
}

const SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);
const PRODUCTION_SCHEMES = new Set(['https:', 'wss:']);
/** Ranges no TCP connection can go to; refused even in development. */
const NEVER_CONNECTABLE = new Set(['unspecified', 'multicast', 'broadcast', 'invalid']);

/** The system resolver: getaddrinfo, every address, in the order it answers. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Parses and checks a bot URL, resolves its host ONCE, checks every address; returns the address to connect to. */
export async function checkBotUrl(url: string, policy: AddressPolicy): Promise<ResolvedAddress & { url: URL }> {
  const parsed = parseBotUrl(url, policy);
  const host = bareHost(parsed.hostname);
  // An IP literal (WHATWG has already turned 0x7f.1, 2130706433 and 127.1 into 127.0.0.1) needs no DNS.
  const answers = isIP(host) !== 0 ? [{ address: host, family: isIP(host) as 4 | 6 }] : await resolveOnce(host, policy);
  const chosen = judgeAddresses(host, answers, policy.production);
  return { ...chosen, url: parsed };
}

/** For the runner: a gate that applies checkBotUrl with the policy (throws UrlRejected). */
export function addressGate(policy: AddressPolicy): (url: string) => Promise<ResolvedAddress> {
  return async (url) => {
    const { address, family } = await checkBotUrl(url, policy);
    return { address, family };
  };
}

/** The URL checks that need no network. Throws UrlRejected. */
export function parseBotUrl(url: string, policy: Pick<AddressPolicy, 'production'>): URL {
  if (url.length > MAX_URL_LENGTH) {
    throw new UrlRejected(
      'url_too_long',
      `the bot URL is ${url.length} characters long; the limit is ${MAX_URL_LENGTH}`,
    );
  }
  // The URL parser would silently trim or drop these; a URL that needs that is not the one the owner meant.
  if (/[\u0000-\u0020\u007f]/.test(url)) {
    throw new UrlRejected('invalid_url', 'the bot URL contains spaces or control characters');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UrlRejected('invalid_url', 'the bot URL is not a valid absolute URL');
  }
  if (!SCHEMES.has(parsed.protocol)) {
    throw new UrlRejected(
      'unsupported_scheme',
      `bot URLs must use https or wss (http or ws in development), not ${parsed.protocol.slice(0, -1)}`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UrlRejected(
      'credentials_in_url',
      'bot URLs must not contain a user name or password (user:pass@); bots authenticate the service by its handshake signature',
    );
  }
  if (parsed.href.includes('#')) {
    throw new UrlRejected(
      'fragment_in_url',
      'bot URLs must not contain a fragment (#...); it is never sent to the bot',
    );
  }
  if (parsed.hostname === '') {
    throw new UrlRejected('missing_host', 'the bot URL has no host');
  }
  if (parsed.port === '0') {
    throw new UrlRejected('invalid_port', 'the bot URL has port 0, which nothing can listen on');
  }
  if (policy.production && !PRODUCTION_SCHEMES.has(parsed.protocol)) {
    throw new UrlRejected(
      'https_required',
      `production bots must use https or wss, not ${parsed.protocol.slice(0, -1)}`,
    );
  }
  // Percent-encoding can lengthen what was given.
  if (parsed.href.length > MAX_URL_LENGTH) {
    throw new UrlRejected(
      'url_too_long',
      `the bot URL is ${parsed.href.length} characters long once encoded; the limit is ${MAX_URL_LENGTH}`,
    );
  }
  return parsed;
}

/** URL.hostname keeps IPv6 literals in brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

async function resolveOnce(host: string, policy: AddressPolicy): Promise<ResolvedAddress[]> {
  const resolve = policy.resolve ?? systemResolver;
  const ms = policy.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UrlRejected('resolve_timeout', `${host} did not resolve within ${ms} ms`)), ms);
  });
  try {
    const answers = await Promise.race([Promise.resolve().then(() => resolve(host)), timeout]);
    if (!Array.isArray(answers))
      throw new UrlRejected('resolve_failed', `${host} could not be resolved (the resolver gave no list)`);
    return answers;
  } catch (err) {
    if (err instanceof UrlRejected) throw err;
    const code = (err as { code?: unknown } | null)?.code;
    const why = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
    throw new UrlRejected('resolve_failed', `${host} could not be resolved (${why})`);
  } finally {
    clearTimeout(timer);
  }
}

/** Every address must pass; the first is the one to connect to. */
function judgeAddresses(host: string, answers: readonly ResolvedAddress[], production: boolean): ResolvedAddress {
  if (answers.length === 0) {
    throw new UrlRejected('no_address', `${host} resolves to no address`);
  }
  const checked: ResolvedAddress[] = [];
  for (const answer of answers) {
    const address = typeof answer?.address === 'string' ? answer.address : String(answer?.address);
    const cls = assessAddress(address);
    const allowed = production ? cls.range === 'unicast' : !NEVER_CONNECTABLE.has(cls.range);
    if (!allowed) {
      const rule = production
        ? 'production bots must be reachable at a public address'
        : 'bots must be reachable at an address a connection can go to';
      throw new UrlRejected('address_not_allowed', `${whatIsWrong(host, answers, address, cls)}; ${rule}`, {
        address,
        range: cls.range,
      });
    }
    // A mapped address is pinned as the IPv4 it carries: reachable without dual-stack sockets.
    checked.push(
      cls.embedded?.form === 'ipv4Mapped'
        ? { address: cls.embedded.ipv4, family: 4 }
        : { address, family: isIP(address) as 4 | 6 },
    );
  }
  return checked[0]!;
}

/**
 * "10.0.0.5 is a private address", "bot.example.com resolves to 10.0.0.5, a private address", or with several addresses
 * which one failed.
 */
function whatIsWrong(host: string, answers: readonly ResolvedAddress[], bad: string, cls: AddressClass): string {
  if (answers.length === 1 && bad === host) return describeAddress(bad, cls);
  if (answers.length === 1) return `${host} resolves to ${addressText(bad, cls)}, ${rangeWords(cls.range)}`;
  const all = answers.map((a) => String(a?.address)).join(', ');
  return `${host} resolves to ${all}, and every one must pass: ${describeAddress(bad, cls)}`;
}
