// A DNS lookup that never asks DNS: every connection made with it goes to the
// address the policy checked, so a name that rebinds between the check and
// the connect gets nowhere. Works as the `lookup` option of net, tls, http,
// https, ws and undici's connector.
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

type Callback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Answers every lookup, for any hostname, with `addr`: an array of one when
 * the caller asks for `all` (Node's autoSelectFamily does), else the address
 * and its family. A `family` hint is ignored: the checked address is the only
 * one this connection may use.
 */
export function pinnedLookup(addr: PinnedAddress): LookupFunction {
  const { address, family } = addr;
  function lookup(_hostname: string, options: unknown, callback?: Callback): void {
    // Tolerate the two-argument form lookup(hostname, callback) as dns.lookup does.
    const cb = (typeof options === 'function' ? options : callback) as Callback;
    const all = typeof options === 'object' && options !== null && (options as { all?: unknown }).all === true;
    // Node's own resolver calls back asynchronously; callers rely on that ordering.
    process.nextTick(() => (all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  }
  return lookup as LookupFunction;
}
