// API keys: add a public key (OpenSSH line, PEM block or base64 of the raw
// 32 bytes) with chosen scopes, see every key (revoked ones too), revoke one
// after a confirmation, and copy the `arena login` line for a new key.
import { useState, type FormEvent } from 'react';
import type { ApiKeyMeta, Scope } from '../../protocol/index';
import { addKey, errorText, listKeys, revokeKey } from '../api';
import { CodeChoices } from '../components/code-choices';
import { PageTitle } from '../components/page-title';
import { SignedIn } from '../components/signed-in';
import { formatTime } from '../lib/format';
import { SCOPE_TEXT } from '../lib/scopes';
import { useData } from '../lib/use-data';

const DEFAULT_SCOPES: Scope[] = ['bots.read', 'bots.write'];

export function KeysPage() {
  return <SignedIn title="API keys">{() => <Keys />}</SignedIn>;
}

function Keys() {
  const keys = useData((s) => listKeys(s), []);
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(DEFAULT_SCOPES);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyMeta | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      const ordered = SCOPE_TEXT.map(([s]) => s).filter((s) => scopes.includes(s));
      const k = await addKey({ name: name.trim(), publicKey: publicKey.trim(), scopes: ordered });
      setCreated(k);
      setName('');
      setPublicKey('');
      setScopes(DEFAULT_SCOPES);
      keys.reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <p>
        The CLI signs each request with an Ed25519 key; the service keeps only the public half. Make a key pair with{' '}
        <code>arena keys generate</code> (or <code>ssh-keygen -t ed25519</code>) and paste the public key here.
      </p>
      <section className="card" aria-labelledby="add-h">
        <h2 id="add-h">Add a key</h2>
        <form onSubmit={submit} noValidate>
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={64}
            placeholder="laptop"
            autoComplete="off"
          />
          <label htmlFor="key-public">Public key</label>
          <textarea
            id="key-public"
            value={publicKey}
            onChange={(e) => setPublicKey(e.target.value)}
            spellCheck={false}
            aria-describedby="key-public-hint"
          />
          <p id="key-public-hint" className="field-hint">
            An OpenSSH line (<code>ssh-ed25519 AAAA…</code>), a PEM <code>PUBLIC KEY</code> block, or base64 of the raw
            32 bytes.
          </p>
          <CodeChoices legend="Scopes" options={SCOPE_TEXT} chosen={scopes} setChosen={setScopes} />
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              Add key
            </button>
          </div>
        </form>
        {created && <LoginSnippet k={created} />}
      </section>
      <section aria-labelledby="keys-h">
        <h2 id="keys-h">Your keys</h2>
        {keys.error && (
          <p className="error" role="alert">
            {keys.error}
          </p>
        )}
        {keys.data && keys.data.keys.length === 0 && <p className="muted">No keys yet.</p>}
        {keys.data && keys.data.keys.length > 0 && (
          <div className="table-wrap">
            <table data-testid="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key id</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Revoked</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.keys.map((k) => (
                  <KeyRow key={k.id} k={k} onChange={keys.reload} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function LoginSnippet({ k }: { k: ApiKeyMeta }) {
  const line = `arena login --url ${location.origin} --key-id ${k.id} --key ~/.ssh/id_ed25519`;
  return (
    <div role="status" data-testid="created-key">
      <p className="ok">
        Key “{k.name}” added with id <code>{k.id}</code>. Point the CLI at it, with the path of its private half:
      </p>
      <pre data-testid="login-snippet">{line}</pre>
    </div>
  );
}

function KeyRow({ k, onChange }: { k: ApiKeyMeta; onChange: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      await revokeKey(k.id);
      setConfirming(false);
      onChange();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-key={k.id}>
      <td>{k.name}</td>
      <td className="mono">{k.id}</td>
      <td>{k.scopes.join(', ')}</td>
      <td>{formatTime(k.createdAt)}</td>
      <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</td>
      <td data-testid="revoked">{k.revokedAt ? formatTime(k.revokedAt) : '–'}</td>
      <td>
        {!k.revokedAt && !confirming && (
          <button
            type="button"
            className="danger"
            onClick={() => setConfirming(true)}
            aria-label={`Revoke key ${k.name}`}
          >
            Revoke
          </button>
        )}
        {confirming && (
          <div role="alertdialog" aria-labelledby={`rv-${k.id}`}>
            <p id={`rv-${k.id}`}>Revoke “{k.name}”? Requests signed with it fail at once. This cannot be undone.</p>
            <div className="row">
              <button type="button" className="danger" disabled={busy} onClick={() => void revoke()} autoFocus>
                Yes, revoke
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
