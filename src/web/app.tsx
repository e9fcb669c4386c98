// The dashboard's shell: a skip link, the header with navigation and the
// signed-in user, and the page for the current route.
import { useState } from 'react';
import { errorText, signOut } from './api';
import { PageTitle } from './components/page-title';
import { AccountPage } from './pages/account';
import { BotPage } from './pages/bot';
import { HomePage } from './pages/home';
import { KeysPage } from './pages/keys';
import { WebhooksPage } from './pages/webhooks';
import { MatchPage } from './pages/match';
import { MyBotsPage } from './pages/my-bots';
import { SignInPage } from './pages/sign-in';
import { Link, navigate, parseRoute, paths, useLocation, type Route } from './router';
import { SessionProvider, useSession } from './session';

export function App() {
  return (
    <SessionProvider>
      <Shell />
    </SessionProvider>
  );
}

function Shell() {
  const loc = useLocation();
  const route = parseRoute(loc.pathname, loc.search);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <Header pathname={loc.pathname} />
      <main id="main">
        <Page route={route} />
      </main>
    </>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'home':
      return <HomePage />;
    case 'match':
      return <MatchPage key={route.id} id={route.id} event={route.event} />;
    case 'bot':
      return <BotPage key={route.id} id={route.id} />;
    case 'signin':
      return <SignInPage linkExpired={route.linkExpired} />;
    case 'account':
      return <AccountPage />;
    case 'bots':
      return <MyBotsPage />;
    case 'keys':
      return <KeysPage />;
    case 'webhooks':
      return <WebhooksPage />;
    default:
      return (
        <>
          <PageTitle>Not found</PageTitle>
          <p>
            There is no page here. <Link href={paths.home()}>Go to the leaderboard</Link>.
          </p>
        </>
      );
  }
}

function NavLink({ href, pathname, children }: { href: string; pathname: string; children: string }) {
  return (
    <Link href={href} aria-current={pathname === href ? 'page' : undefined}>
      {children}
    </Link>
  );
}

function Header({ pathname }: { pathname: string }) {
  const { user, setUser } = useSession();
  const [error, setError] = useState<string | null>(null);
  const out = async () => {
    try {
      await signOut();
      setUser(null);
      navigate(paths.home());
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <header className="top">
      <Link href={paths.home()} className="brand">
        Bot Arena
      </Link>
      <nav aria-label="Main">
        <ul>
          <li>
            <NavLink href={paths.home()} pathname={pathname}>
              Leaderboard
            </NavLink>
          </li>
          {user && (
            <li>
              <NavLink href={paths.bots()} pathname={pathname}>
                My bots
              </NavLink>
            </li>
          )}
          {user && (
            <li>
              <NavLink href={paths.keys()} pathname={pathname}>
                API keys
              </NavLink>
            </li>
          )}
          {user && (
            <li>
              <NavLink href={paths.webhooks()} pathname={pathname}>
                Webhooks
              </NavLink>
            </li>
          )}
        </ul>
      </nav>
      <div className="who">
        {user === null && <Link href={paths.signin()}>Sign in</Link>}
        {user && (
          <>
            <Link href={paths.account()} data-testid="me">
              {user.name ? `@${user.name}` : 'Pick a handle'}
            </Link>
            <button type="button" onClick={() => void out()}>
              Sign out
            </button>
          </>
        )}
        {error && (
          <span className="error" role="alert">
            {error}
          </span>
        )}
      </div>
    </header>
  );
}
