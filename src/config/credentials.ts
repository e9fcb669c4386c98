// Turns resolved settings into what a signed request needs, with errors that
// say which of flag / environment / profile to fix.
import type { KeyObject } from 'node:crypto';
import { loadPrivateKeyFile } from '../keys/keypair';
import { ENV_VARS, type Settings } from './settings';
import { MissingCredentialError, NoServerError } from './errors';

export { MissingCredentialError };

export function requireUrl(settings: Settings): string {
  if (!settings.url) throw new NoServerError();
  return settings.url.value;
}

export function requireSigner(settings: Settings): { keyId: string; privateKey: KeyObject; keyFile: string } {
  if (!settings.keyId) {
    throw new MissingCredentialError(
      `no key id: pass --key-id, set ${ENV_VARS.keyId}, or run \`arena login\` (the id comes from registering your public key, POST /keys)`,
    );
  }
  if (!settings.keyFile) {
    throw new MissingCredentialError(
      `no private key file: pass --key, set ${ENV_VARS.keyFile}, or run \`arena login\` (make a key with \`arena keys generate\`)`,
    );
  }
  return {
    keyId: settings.keyId.value,
    keyFile: settings.keyFile.value,
    privateKey: loadPrivateKeyFile(settings.keyFile.value),
  };
}
