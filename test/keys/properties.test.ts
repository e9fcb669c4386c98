import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeBase64, encodeBase64 } from '../../src/keys/base64';
import { formatPublicKey, generateKeyPair, parsePublicKey, publicKeyRaw, signRequest, verifyRequest } from '../../src/keys/index';

const { privateKey, publicKey } = generateKeyPair();
const lookupKey = (id: string) => (id === 'k' ? { publicKey: publicKeyRaw(publicKey), revoked: false } : undefined);
const NOW = 1_700_000_000_000;
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');
const path = fc.webPath().map((p) => '/' + p.replace(/^\/+/, ''));

describe('properties', () => {
  it('base64 decoding inverts encoding for any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
      expect(Buffer.from(decodeBase64(encodeBase64(bytes))!)).toEqual(Buffer.from(bytes));
    }));
  });

  it('any 32 bytes survive every public key form', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom('ssh', 'raw') as fc.Arbitrary<'ssh' | 'raw'>, (raw, form) => {
      expect(Buffer.from(parsePublicKey(formatPublicKey(raw, form)))).toEqual(Buffer.from(raw));
    }));
  });

  it('a signed request verifies, and flipping any body byte breaks it', () => {
    fc.assert(
      fc.property(method, path, fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), (m, p, body, at) => {
        const headers = signRequest(privateKey, 'k', { method: m, path: p, body }, NOW);
        expect(verifyRequest({ method: m, path: p, body, headers, lookupKey, now: NOW }).ok).toBe(true);
        const tampered = Uint8Array.from(body);
        tampered[at % body.length] ^= 0x01;
        expect(verifyRequest({ method: m, path: p, body: tampered, headers, lookupKey, now: NOW })).toMatchObject({ ok: false, code: 'bad_signature' });
      }),
      { numRuns: 150 },
    );
  });
});
