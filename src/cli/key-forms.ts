// What `arena keys generate | public` print: a key's public half in the
// three forms the service accepts, labelled or as JSON, and the public half
// of a key file. Loaded only when a keys command runs (commands/keys.ts).
import type { KeyObject } from 'node:crypto';
import { KeyError } from '../keys/errors';
import type { PublicKeyFormat } from '../keys/formats';
import { loadPrivateKeyFile, publicKeyRaw } from '../keys/keypair';
import { formatPublicKey, parsePublicKey } from '../keys/public-key';
import { readKeyFileText } from '../keys/read-key-file';

/** A private key file's public half; a public key file is accepted too, for converting forms. */
export function publicKeyOfFile(file: string): Uint8Array {
  try {
    return publicKeyRaw(loadPrivateKeyFile(file));
  } catch (err) {
    if (!(err instanceof KeyError) || !/this is a public key/.test(err.message)) throw err;
    try {
      return parsePublicKey(readKeyFileText(file));
    } catch (inner) {
      if (inner instanceof KeyError) throw new KeyError(`${file}: ${inner.message}`);
      throw inner;
    }
  }
}

export function allForms(key: Uint8Array | KeyObject, comment?: string): Record<PublicKeyFormat, string> {
  return {
    ssh: formatPublicKey(key, 'ssh', comment),
    pem: formatPublicKey(key, 'pem'),
    raw: formatPublicKey(key, 'raw'),
  };
}

export function labelled(key: Uint8Array | KeyObject, comment?: string): string {
  const f = allForms(key, comment);
  return `ssh: ${f.ssh}\nraw: ${f.raw}\npem:\n${f.pem}\n`;
}
