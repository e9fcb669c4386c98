import { createPublicKey, type KeyObject } from 'node:crypto';
import { KeyError } from './errors';

/** The raw 32 bytes of an Ed25519 public key, from a public or private KeyObject. */
export function publicKeyRaw(key: KeyObject): Uint8Array {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new KeyError(`expected an Ed25519 key, got ${key.asymmetricKeyType ?? key.type}`);
  }
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  // SPKI DER for Ed25519 is a fixed 12-byte prefix then the 32 key bytes.
  const der = pub.export({ format: 'der', type: 'spki' });
  return new Uint8Array(der.subarray(der.length - 32));
}
