// Account: the e-mail and the public handle (pick it the first time, change it later).
import { useState, type FormEvent } from 'react';
import type { User } from '../../protocol/index';
import { errorText, setHandle } from '../api';
import { PageTitle } from '../components/page-title';
import { SignedIn } from '../components/signed-in';
import { Link, paths } from '../router';
import { useSession } from '../session';

export function AccountPage() {
  return <SignedIn title="Account">{(user) => <Account user={user} />}</SignedIn>;
}

function Account({ user }: { user: User }) {
  const { setUser } = useSession();
  const [handle, setHandleText] = useState(user.name);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const u = await setHandle(handle.trim());
      setUser(u);
      setSaved(`Your handle is now @${u.name}.`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle>Account</PageTitle>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd data-testid="email">{user.email}</dd>
        <dt>Handle</dt>
        <dd data-testid="handle">{user.name ? `@${user.name}` : 'not picked yet'}</dd>
      </dl>
      <form onSubmit={submit} className="card" noValidate>
        <h2>{user.name ? 'Change your handle' : 'Pick your handle'}</h2>
        <label htmlFor="handle">Handle</label>
        <input
          id="handle"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={handle}
          onChange={(e) => setHandleText(e.target.value)}
          aria-describedby={`handle-hint${error ? ' handle-error' : ''}`}
          aria-invalid={error ? true : undefined}
        />
        <p id="handle-hint" className="field-hint">
          2 to 32 characters: lower-case letters, digits and _. It is public: the leaderboard shows it as @handle.
        </p>
        {error && (
          <p id="handle-error" className="form-error" role="alert">
            {error}
          </p>
        )}
        {saved && (
          <p className="ok" role="status">
            {saved}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Save handle
          </button>
        </div>
      </form>
      <p>
        <Link href={paths.bots()}>My bots</Link> · <Link href={paths.keys()}>API keys</Link> ·{' '}
        <Link href={paths.webhooks()}>Webhooks</Link>
      </p>
    </>
  );
}
