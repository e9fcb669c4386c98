// Node 20 cannot load `-----BEGIN OPENSSH PRIVATE KEY-----` files (what
// `ssh-keygen -t ed25519` writes), so the openssh-key-v1 structure is read here
// (format: PROTOCOL.key in the OpenSSH sources). Only unencrypted keys.
import { timingSafeEqual, type KeyObject } from 'node:crypto';
import { privateKeyFromSeed } from './der';
import { KeyError } from './errors';
import { SshReader } from './ssh-wire';
import { publicKeyRaw } from './raw';

const MAGIC = Buffer.from('openssh-key-v1\0', 'latin1');
const BLOCK = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/;

export function isOpenSshPrivateKey(text: string): boolean {
  return text.includes('-----BEGIN OPENSSH PRIVATE KEY-----');
}

export const UNENCRYPT_HINT =
  'export an unencrypted copy with `cp KEY KEY.plain && ssh-keygen -p -N "" -f KEY.plain` (keep it mode 0600), or make a new key with `arena keys generate`';

/** Parses an unencrypted OpenSSH Ed25519 private key into a node KeyObject. */
export function parseOpenSshPrivateKey(text: string): KeyObject {
  const m = BLOCK.exec(text);
  if (!m) throw new KeyError('OpenSSH private key has no END line; the file looks truncated');
  const body = m[1].replace(/\s+/g, '');
  const der = Buffer.from(body, 'base64');
  if (
    !/^[A-Za-z0-9+/]*={0,2}$/.test(body) ||
    der.length < MAGIC.length ||
    !der.subarray(0, MAGIC.length).equals(MAGIC)
  ) {
    throw new KeyError('OpenSSH private key is not valid openssh-key-v1 data (bad base64 or wrong header)');
  }
  try {
    return readKey(new SshReader(der.subarray(MAGIC.length), 'OpenSSH private key'));
  } catch (err) {
    if (err instanceof KeyError) throw err;
    throw new KeyError(`${(err as Error).message}`);
  }
}

function readKey(r: SshReader): KeyObject {
  const cipher = r.string();
  const kdf = r.string();
  r.bytes(); // kdf options: only meaningful when encrypted
  const count = r.uint32();
  if (count !== 1) throw new KeyError(`OpenSSH private key file holds ${count} keys; arena expects exactly one`);
  const pubBlob = new SshReader(r.bytes(), 'OpenSSH public key blob');
  const type = pubBlob.string();
  if (type !== 'ssh-ed25519') {
    throw new KeyError(
      `OpenSSH key is ${type}, not ssh-ed25519; arena uses Ed25519 keys (make one with \`ssh-keygen -t ed25519\` or \`arena keys generate\`)`,
    );
  }
  if (cipher !== 'none' || kdf !== 'none') {
    throw new KeyError(
      `OpenSSH private key is encrypted with a passphrase (${cipher}/${kdf}); arena cannot prompt for it: ${UNENCRYPT_HINT}`,
    );
  }
  const pubFromHeader = pubBlob.bytes();
  const priv = new SshReader(r.bytes(), 'OpenSSH private section');
  // Equal check-ints are how OpenSSH tells a correct decryption; for an
  // unencrypted key a mismatch means the file is corrupt.
  // biome-ignore lint/suspicious/noSelfCompare: two reads of the stream, not one value
  if (priv.uint32() !== priv.uint32()) throw new KeyError('OpenSSH private key is corrupt (check values differ)');
  const privType = priv.string();
  if (privType !== 'ssh-ed25519') throw new KeyError(`OpenSSH private section is ${privType}, not ssh-ed25519`);
  const pub = priv.bytes();
  const secret = priv.bytes(); // seed (32) followed by the public key (32)
  priv.bytes(); // comment
  const padding = priv.rest();
  if (pub.length !== 32 || secret.length !== 64) throw new KeyError('OpenSSH Ed25519 key has the wrong length');
  if (!padding.every((b, i) => b === i + 1)) throw new KeyError('OpenSSH private key is corrupt (bad padding)');
  if (!pub.equals(pubFromHeader) || !secret.subarray(32).equals(pub)) {
    throw new KeyError('OpenSSH private key is corrupt (public key copies disagree)');
  }
  const key = privateKeyFromSeed(secret.subarray(0, 32));
  if (!timingSafeEqual(publicKeyRaw(key), pub))
    throw new KeyError('OpenSSH private key is corrupt (seed does not match its public key)');
  return key;
}
