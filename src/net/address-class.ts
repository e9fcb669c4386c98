// What kind of address an IP is, for the bot URL policy. The ranges are
// ipaddr.js's; this file adds what ipaddr.js leaves to the caller: IPv6 forms
// that carry an IPv4 address (mapped, compatible, NAT64, translated) are
// judged by the IPv4 address inside, and IPv6 "unicast" outside 2000::/3
// (the only block IANA allocates for global unicast) counts as reserved.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** How an IPv6 address carries an IPv4 one. */
export type EmbeddingForm = 'ipv4Mapped' | 'ipv4Compatible' | 'nat64' | 'ipv4Translated';

export interface AddressClass {
  /**
   * The range that decides: ipaddr.js's name ('unicast', 'loopback',
   * 'private', ...), the embedded IPv4's range for IPv6 forms that carry one
   * (when that range is not 'unicast'), 'ipv4Compatible' for the deprecated
   * ::a.b.c.d form of a public address, 'reserved' for IPv6 outside 2000::/3,
   * or 'invalid' for a string that is not an IP address.
   */
  range: string;
  /** The IPv4 address an IPv6 form carries, dotted. */
  embedded?: { ipv4: string; form: EmbeddingForm };
}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** The range name that decides whether `ip` may be a bot's address; only 'unicast' is public. */
export function classifyAddress(ip: string): string {
  return assessAddress(ip).range;
}

/** classifyAddress with the IPv4 address an IPv6 form carries, for messages. */
export function assessAddress(ip: string): AddressClass {
  // net.isIP is strict (no '127.1' or '0x7f.1', which ipaddr.js would accept).
  if (isIP(ip) === 0) return { range: 'invalid' };
  const parsed = ipaddr.parse(hexTail(ip));
  if (parsed.kind() === 'ipv4') return { range: parsed.range() };
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'ipv4Mapped') return carried(v6, 'ipv4Mapped', 'unicast');
  if (range === 'rfc6145') return carried(v6, 'ipv4Translated', 'rfc6145');
  if (range === 'rfc6052') {
    // 64:ff9b::/96 is DNS64/NAT64 reaching an IPv4 host: as good as that host.
    // 64:ff9b:1::/48 is for local NAT64 setups only.
    return v6.match(NAT64_WELL_KNOWN) ? carried(v6, 'nat64', 'unicast') : { range };
  }
  if (range !== 'unicast') return { range };
  if (v6.parts.slice(0, 6).every((p) => p === 0)) return carried(v6, 'ipv4Compatible', 'ipv4Compatible');
  if (!v6.match(GLOBAL_UNICAST_V6)) return { range: 'reserved' };
  return { range: 'unicast' };
}

/**
 * "::8.8.8.8" -> "::808:808". ipaddr.js reads a dotted tail after a bare "::"
 * as IPv4-mapped (::ffff:8.8.8.8); the socket layer reads it as
 * IPv4-compatible. Writing the tail in hex makes ipaddr.js agree with the socket layer.
 */
function hexTail(ip: string): string {
  const m = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/.exec(ip);
  if (!m) return ip;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}${m[6] ?? ''}`;
}

/** The carried IPv4's range when it is bad, else `whenPublic`. */
function carried(v6: ipaddr.IPv6, form: EmbeddingForm, whenPublic: string): AddressClass {
  const p = v6.parts;
  const ipv4 = new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  const inner = ipv4.range();
  return { range: inner === 'unicast' ? whenPublic : inner, embedded: { ipv4: ipv4.toString(), form } };
}

const RANGE_WORDS: Record<string, string> = {
  unicast: 'a public address',
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  reserved: 'a reserved address (documentation, benchmarking or not allocated)',
  as112: 'an AS112 (DNS sink) address',
  amt: 'an AMT relay address',
  benchmarking: 'a benchmarking address',
  uniqueLocal: 'a unique-local address',
  deprecatedSiteLocal: 'a site-local address',
  discard: 'a discard-only address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a local-use NAT64 address',
  '6to4': 'a 6to4 tunnel address',
  teredo: 'a Teredo tunnel address',
  as112v6: 'an AS112 (DNS sink) address',
  deprecatedOrchid: 'an ORCHID address',
  orchid2: 'an ORCHID address',
  droneRemoteIdProtocolEntityTags: 'a drone remote ID address',
  segmentRouting: 'a segment routing address',
  ipv4Compatible: 'a deprecated IPv4-compatible IPv6 address',
  invalid: 'not an IP address',
};

const FORM_WORDS: Record<EmbeddingForm, string> = {
  ipv4Mapped: 'IPv4-mapped',
  ipv4Compatible: 'IPv4-compatible',
  nat64: 'NAT64',
  ipv4Translated: 'IPv4-translated',
};

/** "a private address": the words for a range. */
export function rangeWords(range: string): string {
  return RANGE_WORDS[range] ?? `a ${range} address`;
}

/** "10.0.0.5", or "::ffff:a00:5 (IPv4-mapped 10.0.0.5)" for a form that carries an IPv4 address. */
export function addressText(ip: string, cls: AddressClass = assessAddress(ip)): string {
  return cls.embedded ? `${ip} (${FORM_WORDS[cls.embedded.form]} ${cls.embedded.ipv4})` : ip;
}

/** "10.0.0.5 is a private address". */
export function describeAddress(ip: string, cls: AddressClass = assessAddress(ip)): string {
  return `${addressText(ip, cls)} is ${rangeWords(cls.range)}`;
}
