import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeBase64, encodeBase64 } from '../../src/keys/base64';
import {
  formatPublicKey,
  generateKeyPair,
  parsePublicKey,
  publicKeyRaw,
  signRequest,
  verifyRequest,
} from '../../src/keys/index';

const { privateKey, publicKey } = generateKeyPair();
const lookupKey = (id: string) => (id === 'k' ? { publicKey: publicKeyRaw(publicKey), revoked: false } : undefined);
const NOW = 1_700_000_000_000;
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');
const path = fc.webPath().map((p) => '/' + p.replace(/^\/+/, ''));

describe('properties', () => {
  it('base64 decoding inverts encoding for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(Buffer.from(decodeBase64(encodeBase64(bytes))!)).toEqual(Buffer.from(bytes));
      }),
    );
  });

  it('base64 decoding accepts exactly the canonical encodings, padded or not', () => {
    // The rule spelled out the long way (what decodeBase64 did before it leaned on re-encoding).
    const reference = (text: string): Uint8Array | undefined => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
      const unpadded = text.replace(/=+$/, '');
      if (unpadded.length % 4 === 1) return undefined;
      const padded = unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4);
      if (text.length !== unpadded.length && text !== padded) return undefined;
      const bytes = Buffer.from(padded, 'base64');
      return bytes.toString('base64') === padded ? new Uint8Array(bytes) : undefined;
    };
    const alphabet = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
      '=',
      '-',
      '_',
      ' ',
      '\n',
      '.',
      'é',
    );
    const nearlyBase64 = fc.oneof(
      fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join('')),
      // A real encoding, then cut, padded again, or with one character changed.
      fc
        .tuple(fc.uint8Array({ maxLength: 9 }), fc.nat(12), fc.nat(3), fc.nat(20), alphabet)
        .map(([bytes, cut, pad, at, ch]) => {
          const text =
            encodeBase64(bytes)
              .slice(0, bytes.length ? cut % (encodeBase64(bytes).length + 1) : 0)
              .replace(/=+$/, '') + '='.repeat(pad);
          return at < text.length && at % 3 === 0 ? text.slice(0, at) + ch + text.slice(at + 1) : text;
        }),
    );
    for (const text of ['', '=', '==', 'AA', 'AA=', 'AA==', 'AA===', 'AB==', 'AB', 'A', 'AAAA\n', 'AA-_', ' AAAA']) {
      expect(decodeBase64(text), JSON.stringify(text)).toEqual(reference(text));
    }
    fc.assert(
      fc.property(nearlyBase64, (text) => {
        const got = decodeBase64(text);
        const want = reference(text);
        expect(got === undefined ? undefined : Buffer.from(got), JSON.stringify(text)).toEqual(
          want === undefined ? undefined : Buffer.from(want),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('any 32 bytes survive every public key form', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom('ssh', 'raw') as fc.Arbitrary<'ssh' | 'raw'>,
        (raw, form) => {
          expect(Buffer.from(parsePublicKey(formatPublicKey(raw, form)))).toEqual(Buffer.from(raw));
        },
      ),
    );
  });

  it('a signed request verifies, and flipping any body byte breaks it', () => {
    fc.assert(
      fc.property(method, path, fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), (m, p, body, at) => {
        const headers = signRequest(privateKey, 'k', { method: m, path: p, body }, NOW);
        expect(verifyRequest({ method: m, path: p, body, headers, lookupKey, now: NOW }).ok).toBe(true);
        const tampered = Uint8Array.from(body);
        tampered[at % body.length] ^= 0x01;
        expect(verifyRequest({ method: m, path: p, body: tampered, headers, lookupKey, now: NOW })).toMatchObject({
          ok: false,
          code: 'bad_signature',
        });
      }),
      { numRuns: 150 },
    );
  });
});
