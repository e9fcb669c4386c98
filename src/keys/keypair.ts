// Ed25519 key pairs: generate, load a private key file, write PKCS#8 PEM.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { KeyError } from './errors';
import { isOpenSshPrivateKey, parseOpenSshPrivateKey } from './openssh-private';
import { readKeyFileText } from './read-key-file';

export { publicKeyRaw } from './raw';

export function generateKeyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ed25519');
}

/** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), what `arena keys generate` writes and openssl reads. */
export function privateKeyToPem(key: KeyObject): string {
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') {
    throw new KeyError('privateKeyToPem needs an Ed25519 private key');
  }
  return key.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** Reads a private key file: PKCS#8 PEM or unencrypted OpenSSH. Errors name the file, never its contents. */
export function loadPrivateKeyFile(path: string): KeyObject {
  const text = readKeyFileText(path);
  try {
    return parsePrivateKey(text);
  } catch (err) {
    if (err instanceof KeyError) throw new KeyError(`${path}: ${err.message}`);
    throw err;
  }
}

/** Parses private key text: PKCS#8 PEM or unencrypted OpenSSH; must be Ed25519. */
export function parsePrivateKey(text: string): KeyObject {
  if (isOpenSshPrivateKey(text)) return parseOpenSshPrivateKey(text);
  if (text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----')) {
    throw new KeyError(
      'PKCS#8 key is encrypted with a passphrase; arena cannot prompt for it: export an unencrypted copy with `openssl pkey -in KEY -out KEY.plain` (keep it mode 0600), or make a new key with `arena keys generate`',
    );
  }
  if (text.includes('-----BEGIN PUBLIC KEY-----') || /^\s*ssh-[a-z0-9-]+ /.test(text)) {
    throw new KeyError('this is a public key; signing needs the private key file');
  }
  const other = /-----BEGIN ([A-Z ]+) PRIVATE KEY-----/.exec(text);
  if (other) {
    throw new KeyError(
      `this is a ${other[1]} private key; arena uses Ed25519 keys (make one with \`arena keys generate\`, \`ssh-keygen -t ed25519\` or \`openssl genpkey -algorithm ed25519\`)`,
    );
  }
  if (!text.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new KeyError(
      'not a private key file: expected a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----) or an OpenSSH private key',
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new KeyError('PKCS#8 private key does not parse (damaged PEM block)');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new KeyError(
      `this is a ${key.asymmetricKeyType} private key; arena uses Ed25519 keys (make one with \`arena keys generate\`)`,
    );
  }
  return key;
}
