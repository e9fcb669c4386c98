// Ed25519 keys and signatures for arena: node:crypto does the math (measured
// ~12x faster than @noble/ed25519 for verification, see bench/keys.ts).
export { KeyError } from './errors';
export { generateKeyPair, publicKeyRaw, loadPrivateKeyFile, parsePrivateKey, privateKeyToPem } from './keypair';
export { publicKeyFromRaw, privateKeyFromSeed } from './der';
export {
  HANDSHAKE_WINDOW_MS,
  signHandshake,
  verifyHandshake,
  handshakeMessage,
  signBoundHandshake,
  verifyBoundHandshake,
  boundHandshakeMessage,
  handshakeAudience,
  newHandshakeNonce,
  NonceMemory,
} from './handshake';
export type { HandshakeHeaders, BoundHandshakeHeaders, HandshakeResult, HeaderBag } from './handshake';
export { parsePublicKey, formatPublicKey, PUBLIC_KEY_FORMATS } from './public-key';
export type { PublicKeyFormat } from './public-key';
export { REQUEST_WINDOW_MS, requestMessage, signRequest, verifyRequest } from './request';
export type {
  RequestHeaders,
  RequestBody,
  RequestFailure,
  RequestVerification,
  KeyRecord,
  VerifyRequestInput,
} from './request';
export { writePrivateKeyFile } from './key-file';
