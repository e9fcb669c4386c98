// Fixed DER wrappers for Ed25519 (RFC 8410): the structures never vary except
// for the 32 key bytes, so prefix + bytes is the whole encoding.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new RangeError(`an Ed25519 public key is 32 bytes, got ${raw.length}`);
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError(`an Ed25519 private seed is 32 bytes, got ${seed.length}`);
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

// Building a KeyObject from raw bytes costs about as much as a verification
// (bench/keys.ts), and verifiers see the same few keys again and again: the
// platform key on the bot side, stored owner keys on the service side.
const cache = new Map<string, KeyObject>();
const CACHE_LIMIT = 1024;

/**
 * publicKeyFromRaw with a bounded cache keyed by the key bytes, given as bytes
 * or as their base64 (how stores keep them: no decoding on a hit).
 */
export function cachedPublicKey(raw: Uint8Array | string): KeyObject {
  const id = typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
  let key = cache.get(id);
  if (!key) {
    key = publicKeyFromRaw(typeof raw === 'string' ? Buffer.from(raw, 'base64') : raw);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(id, key);
  }
  return key;
}
