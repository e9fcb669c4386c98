// Sign-in by e-mail link: POST /auth/email sends a single-use link valid 15
// minutes; opening it sets the session cookie and comes back here signed in.
import { useState, type FormEvent } from 'react';
import { errorText, requestSignIn } from '../api';
import { PageTitle } from '../components/page-title';
import { Link, paths } from '../router';
import { useSession } from '../session';

export function SignInPage({ linkExpired = false }: { linkExpired?: boolean }) {
  const { user } = useSession();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestSignIn(email.trim());
      setSentTo(email.trim());
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  if (user) {
    return (
      <>
        <PageTitle>Signed in</PageTitle>
        <p>You are signed in as {user.name ? `@${user.name}` : user.email}.</p>
        <ul>
          {!user.name && (
            <li>
              <Link href={paths.account()}>Pick your handle</Link>
            </li>
          )}
          <li>
            <Link href={paths.bots()}>My bots</Link>
          </li>
          <li>
            <Link href={paths.keys()}>API keys</Link>
          </li>
        </ul>
      </>
    );
  }
  return (
    <>
      <PageTitle>Sign in</PageTitle>
      {linkExpired && !sentTo && (
        <p role="alert" className="form-error" data-testid="link-expired">
          This sign-in link has expired or was already used. Send yourself a new one below.
        </p>
      )}
      <p>
        No password: we send a sign-in link to your e-mail address. It works once, for 15 minutes. A new address gets a
        new account.
      </p>
      <form onSubmit={submit} className="card" noValidate>
        <label htmlFor="email">E-mail address</label>
        <input
          id="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-describedby={error ? 'email-error' : undefined}
          aria-invalid={error ? true : undefined}
        />
        {error && (
          <p id="email-error" className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send me a sign-in link'}
          </button>
        </div>
      </form>
      {sentTo && (
        <p role="status" className="ok" data-testid="sent">
          A sign-in link is on its way to {sentTo}. Open it in this browser. (On a development server without mail, the
          link is in the server's log.)
        </p>
      )}
    </>
  );
}
