// Public keys in the three forms the service accepts (spec POST /keys): an
// OpenSSH `ssh-ed25519` line, a PEM PUBLIC KEY block, or base64 of 32 raw bytes.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeBase64, encodeBase64 } from './base64';
import { publicKeyFromRaw } from './der';
import { KeyError } from './errors';
import { publicKeyRaw } from './raw';
import { PUBLIC_KEY_FORMATS, type PublicKeyFormat } from './formats';
import { SshReader, sshEd25519Blob } from './ssh-wire';

export { PUBLIC_KEY_FORMATS, type PublicKeyFormat };

/** Parses any accepted form into the raw 32 bytes; throws KeyError saying why otherwise. */
export function parsePublicKey(text: string): Uint8Array {
  const t = text.trim();
  if (t === '') throw new KeyError('public key is empty');
  if (t.startsWith('-----BEGIN')) return parsePem(t);
  if (/^(ssh-|ecdsa-|sk-)/.test(t)) return parseSshLine(t);
  return parseRawBase64(t);
}

/** Formats raw bytes (or a KeyObject) as one accepted form; ssh lines may carry a comment. */
export function formatPublicKey(key: Uint8Array | KeyObject, format: PublicKeyFormat, comment?: string): string {
  const raw = key instanceof Uint8Array ? key : publicKeyRaw(key);
  if (raw.length !== 32) throw new KeyError(`an Ed25519 public key is 32 bytes, got ${raw.length}`);
  switch (format) {
    case 'raw':
      return encodeBase64(raw);
    case 'ssh':
      return `ssh-ed25519 ${sshEd25519Blob(raw).toString('base64')}${comment ? ` ${comment}` : ''}`;
    case 'pem':
      return publicKeyFromRaw(raw).export({ format: 'pem', type: 'spki' }).toString().trimEnd();
  }
}

function parsePem(t: string): Uint8Array {
  const label = /^-----BEGIN ([A-Z0-9 ]+)-----/.exec(t)?.[1];
  if (label !== 'PUBLIC KEY') {
    const hint = label?.includes('PRIVATE')
      ? '; that is a private key, never share it: give its public half (`arena keys public FILE`)'
      : '';
    throw new KeyError(`PEM block is "${label ?? 'unknown'}", expected "PUBLIC KEY"${hint}`);
  }
  if (!/-----END PUBLIC KEY-----\s*$/.test(t)) throw new KeyError('PEM PUBLIC KEY block has no matching END line');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: t, format: 'pem' });
  } catch {
    throw new KeyError('PEM PUBLIC KEY block does not parse (damaged base64 or DER)');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new KeyError(`PEM public key is ${key.asymmetricKeyType}, not Ed25519`);
  }
  return publicKeyRaw(key);
}

function parseSshLine(t: string): Uint8Array {
  if (t.includes('\n')) throw new KeyError('OpenSSH public key must be a single line');
  const [type, b64] = t.split(/\s+/);
  if (type !== 'ssh-ed25519')
    throw new KeyError(`OpenSSH key type is ${type}, not ssh-ed25519; make an Ed25519 key (\`ssh-keygen -t ed25519\`)`);
  if (!b64) throw new KeyError('OpenSSH public key line has no key data after "ssh-ed25519"');
  const blob = decodeBase64(b64);
  if (!blob) throw new KeyError('OpenSSH public key data is not valid base64');
  try {
    const r = new SshReader(Buffer.from(blob), 'OpenSSH public key');
    const inner = r.string();
    if (inner !== 'ssh-ed25519') throw new KeyError(`OpenSSH key data says ${inner}, but the line says ssh-ed25519`);
    const raw = r.bytes();
    if (raw.length !== 32) throw new KeyError(`OpenSSH Ed25519 key is ${raw.length} bytes, expected 32`);
    if (r.remaining !== 0) throw new KeyError('OpenSSH public key data has trailing bytes');
    return new Uint8Array(raw);
  } catch (err) {
    if (err instanceof KeyError) throw err;
    throw new KeyError((err as Error).message);
  }
}

function parseRawBase64(t: string): Uint8Array {
  const raw = decodeBase64(t);
  if (!raw) throw new KeyError('public key is not an ssh-ed25519 line, a PEM PUBLIC KEY block, or valid base64');
  if (raw.length !== 32)
    throw new KeyError(`base64 public key decodes to ${raw.length} bytes; an Ed25519 public key is 32 bytes`);
  return raw;
}
