// The forms a public key is written in, apart from the code that writes them,
// so that `arena keys public --help` can list them without loading node:crypto.
export type PublicKeyFormat = 'ssh' | 'pem' | 'raw';
export const PUBLIC_KEY_FORMATS: readonly PublicKeyFormat[] = ['ssh', 'pem', 'raw'];
