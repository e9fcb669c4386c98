// Header lookup that works on Node's IncomingHttpHeaders and on plain objects
// written by hand (any letter case).
export type HeaderBag = Record<string, string | string[] | undefined>;
export type HeaderLookup = { ok: true; value: string } | { ok: false; reason: string };

export function headerValue(headers: HeaderBag, name: string): HeaderLookup {
  let found: string | string[] | undefined = headers[name];
  if (found === undefined) {
    for (const [k, v] of Object.entries(headers)) {
      if (k.toLowerCase() === name) {
        found = v;
        break;
      }
    }
  }
  if (found === undefined) return { ok: true, value: '' };
  if (Array.isArray(found)) {
    // Two copies of a signature header are ambiguous; never pick one silently.
    if (found.length !== 1) return { ok: false, reason: `header ${name} appears ${found.length} times` };
    found = found[0];
  }
  return { ok: true, value: found.trim() };
}

/** All the named headers, present and non-empty, or the reason the first one is not. */
export function requiredHeaders(
  headers: HeaderBag,
  names: string[],
): { ok: true; values: string[] } | { ok: false; reason: string } {
  const values: string[] = [];
  for (const name of names) {
    const got = headerValue(headers, name);
    if (!got.ok) return got;
    if (got.value === '') return { ok: false, reason: `missing header ${name}` };
    values.push(got.value);
  }
  return { ok: true, values };
}

/** Unix milliseconds as a string of digits; anything else (signs, spaces, decimals, exponents) is refused. */
export function parseTimestamp(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}
