// Bot URLs are registered as http(s); match sockets speak ws(s) to the same place.

/** http(s):// -> ws(s)://, ws(s):// unchanged; anything else throws with a message naming the URL. */
export function toWebSocketUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`bot URL "${url}" is not a valid URL (expected http://host:port or ws://host:port)`);
  }
  const map: Record<string, string> = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' };
  const protocol = map[parsed.protocol];
  if (!protocol) throw new Error(`bot URL "${url}" must start with http://, https://, ws:// or wss://`);
  parsed.protocol = protocol;
  // A fragment is never sent to the server, and ws refuses URLs that carry one.
  parsed.hash = '';
  return parsed.toString();
}
