// Client-side routes. The paths are chosen not to collide with the JSON API
// (/matches/{id} is the API; /match/{id} is the page), so the server can send
// index.html for exactly these (src/service/dashboard.ts DASHBOARD_PATHS).
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export type Route =
  | { page: 'home' }
  | { page: 'match'; id: string; event: number | null }
  | { page: 'bot'; id: string }
  | { page: 'signin'; next: string | null; linkExpired: boolean }
  | { page: 'account' }
  | { page: 'bots' }
  | { page: 'keys' }
  | { page: 'webhooks' }
  | { page: 'notfound' };

export const paths = {
  home: () => '/',
  match: (id: string, event?: number | null) =>
    `/match/${encodeURIComponent(id)}${event == null ? '' : `?event=${event}`}`,
  bot: (id: string) => `/bot/${encodeURIComponent(id)}`,
  signin: () => '/sign-in',
  account: () => '/account',
  bots: () => '/account/bots',
  keys: () => '/account/keys',
  webhooks: () => '/account/webhooks',
};

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

export function parseRoute(pathname: string, search: string): Route {
  const q = new URLSearchParams(search);
  if (pathname === '/' || pathname === '') return { page: 'home' };
  if (pathname === '/sign-in') {
    const next = q.get('next');
    return {
      page: 'signin',
      next: next?.startsWith('/') && !next.startsWith('//') ? next : null,
      linkExpired: q.get('link') === 'expired',
    };
  }
  // The API's own paths, opened in a browser (the server sends this page for them: src/service/dashboard.ts
  // API_PAGE_PATHS).
  if (pathname === '/leaderboard' || pathname === '/matches') return { page: 'home' };
  if (pathname === '/me') return { page: 'account' };
  if (pathname === '/bots') return { page: 'bots' };
  if (pathname === '/keys') return { page: 'keys' };
  if (pathname === '/account') return { page: 'account' };
  if (pathname === '/account/bots') return { page: 'bots' };
  if (pathname === '/account/keys') return { page: 'keys' };
  if (pathname === '/account/webhooks') return { page: 'webhooks' };
  let m = /^\/match(?:es)?\/([^/]+)$/.exec(pathname);
  if (m) {
    const id = decode(m[1]);
    const ev = q.get('event');
    const event = ev !== null && /^\d{1,7}$/.test(ev) ? Number(ev) : null;
    return id ? { page: 'match', id, event } : { page: 'notfound' };
  }
  m = /^\/bots?\/([^/]+)$/.exec(pathname);
  if (m) {
    const id = decode(m[1]);
    return id ? { page: 'bot', id } : { page: 'notfound' };
  }
  return { page: 'notfound' };
}

const NAV_EVENT = 'arena:navigate';

export function navigate(href: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAV_EVENT));
}

export function useLocation(): { pathname: string; search: string } {
  const read = () => ({ pathname: location.pathname, search: location.search });
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const on = () => setLoc(read());
    window.addEventListener('popstate', on);
    window.addEventListener(NAV_EVENT, on);
    return () => {
      window.removeEventListener('popstate', on);
      window.removeEventListener(NAV_EVENT, on);
    };
  }, []);
  return loc;
}

/** An <a> that navigates in place on a plain click and behaves as a link otherwise (new tab, copy). */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
