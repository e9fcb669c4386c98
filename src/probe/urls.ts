// `<url>/ping` over plain HTTP(S), derived from a bot URL (spec section 4).
// The WebSocket address is the runner's toWebSocketUrl (one definition).
import { toWebSocketUrl } from '../runner/ws-url';

export function pingUrl(botUrl: string): string {
  const u = new URL(botUrl);
  if (u.protocol === 'ws:') u.protocol = 'http:';
  else if (u.protocol === 'wss:') u.protocol = 'https:';
  u.pathname = u.pathname.endsWith('/') ? `${u.pathname}ping` : `${u.pathname}/ping`;
  u.search = '';
  u.hash = '';
  return u.toString();
}

/** Both addresses of a bot (`<url>/ping` and the WebSocket URL), or null when the URL cannot be used. */
export function botAddresses(botUrl: string): { ping: string; ws: string } | null {
  try {
    return { ping: pingUrl(botUrl), ws: toWebSocketUrl(botUrl) };
  } catch {
    return null;
  }
}
