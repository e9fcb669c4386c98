// Rate limit by client address, for routes anyone may call.
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import type { AppDeps } from './deps';
import type { AppEnv } from './env';
import { classifyAddress } from '../../net/address-class';
import { rateLimited } from './errors';
import { requestHeader } from './node-io';
import { RateLimiter } from './rate-limit';

/** Where a reverse proxy in front of the service sits: the same host or the private network. */
const PROXY_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal']);

/**
 * The client's address, for rate limits. With `trustProxy` (serve --trust-proxy),
 * a request that came from a loopback or private address, a proxy's, counts by
 * the last X-Forwarded-For entry: the address the proxy itself saw (entries
 * before it are the client's word). From anywhere else the header is ignored, so
 * a client that reaches the server directly cannot choose its own address.
 */
export function clientAddress(c: Context, trustProxy = false): string {
  let peer: string;
  try {
    peer = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
  if (!trustProxy) return peer;
  const forwarded = requestHeader(c, 'x-forwarded-for');
  if (!forwarded || !PROXY_RANGES.has(classifyAddress(peer))) return peer;
  const last = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
  return isIP(last) ? last : peer;
}

/**
 * Who a request counts against in per-client limits: its client address, but
 * an IPv6 client by its /64 (a host is usually given a whole /64 and may use
 * any address in it: per address, each request could come with a fresh
 * allowance), and an IPv4-mapped IPv6 address as the IPv4 one.
 */
export function clientKey(c: Context, trustProxy = false): string {
  return limitKey(clientAddress(c, trustProxy));
}

export function limitKey(address: string): string {
  if (isIP(address) === 0) return address;
  const ip = ipaddr.process(address.replace(/%.*$/, ''));
  if (ip.kind() === 'ipv4') return ip.toString();
  const prefix = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}

export function addressLimit(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const limiter = new RateLimiter(deps.rateLimits.address, deps.now);
  return async (c, next) => {
    const wait = limiter.take(clientKey(c, deps.trustProxy));
    if (wait > 0) throw rateLimited(deps.metrics, `too many requests from this address; retry in ${wait} s`, wait);
    await next();
  };
}
