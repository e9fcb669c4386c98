// Strict base64: Buffer.from(s, 'base64') silently skips junk, which would let
// a mangled key or signature decode to something; here junk is an error.
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes standard base64 (padding optional) or returns undefined if the text is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!B64.test(text)) return undefined;
  const unpadded = text.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return undefined;
  const padded = unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4);
  if (text.length !== unpadded.length && text !== padded) return undefined;
  const bytes = Buffer.from(padded, 'base64');
  // Non-canonical trailing bits (e.g. "AB==" vs "AA==") would make two texts mean one key.
  if (bytes.toString('base64') !== padded) return undefined;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
