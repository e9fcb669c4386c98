// The two addresses derived from a bot URL (spec section 4): `<url>/ping` over
// plain HTTP(S) and the URL itself as a WebSocket (http -> ws, https -> wss).

export function pingUrl(botUrl: string): string {
  const u = new URL(botUrl);
  if (u.protocol === 'ws:') u.protocol = 'http:';
  else if (u.protocol === 'wss:') u.protocol = 'https:';
  u.pathname = u.pathname.endsWith('/') ? `${u.pathname}ping` : `${u.pathname}/ping`;
  u.search = '';
  u.hash = '';
  return u.toString();
}

export function socketUrl(botUrl: string): string {
  const u = new URL(botUrl);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  u.hash = '';
  return u.toString();
}
