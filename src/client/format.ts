// How `arena api` prints a response body: pretty JSON for a person at a
// terminal, the exact bytes for a pipe (like `gh api`).
export function formatResponseBody(body: Buffer, contentType: string | undefined, pretty: boolean): Buffer {
  if (!pretty || body.length === 0) return body;
  const looksJson = (contentType ?? '').includes('json') || /^\s*[[{]/.test(body.subarray(0, 64).toString('utf8'));
  if (!looksJson) return body;
  try {
    return Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 2) + '\n', 'utf8');
  } catch {
    return body;
  }
}
