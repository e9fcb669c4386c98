// The public key a user names on the command line (`arena keys add KEY`,
// `arena admin key add --public-key FILE`): a file holding a public key in any
// accepted form, or the text of one (an OpenSSH ssh-ed25519 line, base64 of
// the raw 32 bytes). A private key file is accepted too and only its public
// half is used: the private key never leaves this process.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { KeyError } from '../keys/errors';
import { loadPrivateKeyFile, publicKeyRaw } from '../keys/keypair';
import { formatPublicKey, parsePublicKey } from '../keys/public-key';
import { readKeyFileText } from '../keys/read-key-file';

export interface PublicKeyInput {
  /** base64 of the raw 32 bytes: what the API stores and echoes. */
  raw: string;
  /** A name to suggest for the key: the ssh line's comment, else the file's name. */
  suggestedName?: string;
  source: 'text' | 'file';
}

const LOOKS_LIKE_KEY_TEXT = /^\s*(ssh-ed25519\s|-----BEGIN |[A-Za-z0-9+/]{43}=\s*$)/;

export function readPublicKeyInput(arg: string, opts: { allowText?: boolean } = {}): PublicKeyInput {
  const allowText = opts.allowText ?? true;
  if (allowText && LOOKS_LIKE_KEY_TEXT.test(arg) && !existsSync(arg)) {
    return { raw: formatPublicKey(parsePublicKey(arg), 'raw'), suggestedName: sshComment(arg), source: 'text' };
  }
  const text = readKeyFileText(arg);
  let raw: Uint8Array;
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    raw = publicKeyRaw(loadPrivateKeyFile(arg));
  } else {
    try {
      raw = parsePublicKey(text);
    } catch (err) {
      if (err instanceof KeyError) throw new KeyError(`${arg}: ${err.message}`);
      throw err;
    }
  }
  const name = sshComment(text) ?? basename(arg).replace(/\.(pub|pem|key)$/, '');
  return { raw: formatPublicKey(raw, 'raw'), suggestedName: name ? name.slice(0, 64) : undefined, source: 'file' };
}

function sshComment(text: string): string | undefined {
  const m = /^\s*ssh-ed25519\s+\S+\s+(.+?)\s*$/.exec(text.split('\n')[0] ?? '');
  return m?.[1] ? m[1].slice(0, 64) : undefined;
}
