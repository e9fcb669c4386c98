// Strict base64: Buffer.from(s, 'base64') silently skips junk (and reads the
// URL-safe alphabet too), which would let a mangled key or signature decode to
// something; here junk is an error.

const PADDING = /=+$/;

/**
 * Decodes standard base64 (padding optional) or returns undefined if the text is not base64.
 * Accepted are exactly the canonical encodings of some bytes, padded or not: whatever
 * Buffer.from skipped or read leniently (junk, `-` `_`, misplaced or extra `=`, non-zero
 * trailing bits such as "AB==" for "AA==") makes the re-encoding differ, so two texts never mean one key.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  const canonical = bytes.toString('base64');
  if (text !== canonical && text !== canonical.replace(PADDING, '')) return undefined;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
