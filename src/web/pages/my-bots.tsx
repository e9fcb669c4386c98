// My bots: register (with the URL and deploy checks shown step by step),
// rename, change URL, pause, resume, remove. Only the owner's own bots are
// listed (GET /bots answers with the caller's bots, no-store).
import { useRef, useState, type FormEvent } from 'react';
import type { Bot } from '../../protocol/index';
import {
  ApiError,
  checkBotUrl,
  errorText,
  listBots,
  pauseBot,
  registerBot,
  removeBot,
  resumeBot,
  updateBot,
} from '../api';
import { CheckSteps, failedStep, STEP_INDEX, type CheckState } from '../components/check-steps';
import { PageTitle } from '../components/page-title';
import { SignedIn } from '../components/signed-in';
import { formatTime } from '../lib/format';
import { useData } from '../lib/use-data';
import { Link, paths } from '../router';

export function MyBotsPage() {
  return <SignedIn title="My bots">{() => <MyBots />}</SignedIn>;
}

/**
 * Shows the URL's checks step by step as the server runs them (POST
 * /bots/check), then, when all pass, runs the request that saves (which checks
 * again on the server: the page's word is never taken for it). Returns the
 * result or null.
 */
async function withChecks<T>(
  url: string,
  setCheck: (s: CheckState) => void,
  setError: (e: string | null) => void,
  run: () => Promise<T>,
): Promise<T | null> {
  setError(null);
  setCheck({ phase: 'running', url, step: 0 });
  const fail = (err: unknown) => {
    const step = failedStep(err);
    if (step >= 0) setCheck({ phase: 'failed', url, step, message: errorText(err) });
    else {
      setCheck({ phase: 'idle' });
      setError(errorText(err));
    }
    return null;
  };
  try {
    const last = await checkBotUrl(url, (m) => {
      if (m.type === 'step' && m.status === 'running') setCheck({ phase: 'running', url, step: STEP_INDEX[m.step] });
    });
    if (last.type === 'failed') return fail(new ApiError(422, last.error.code, last.error.message));
    const r = await run();
    setCheck({ phase: 'passed', url });
    return r;
  } catch (err) {
    return fail(err);
  }
}

function MyBots() {
  const bots = useData((s) => listBots(s), []);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [check, setCheck] = useState<CheckState>({ phase: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const register = async (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    const bot = await withChecks(url.trim(), setCheck, setError, () =>
      registerBot({ name: name.trim(), url: url.trim() }),
    );
    if (bot) {
      setNotice(`${bot.name} is registered and active: the scheduler seats it on its next tick.`);
      setName('');
      setUrl('');
      bots.reload();
    }
  };

  return (
    <>
      <PageTitle>My bots</PageTitle>
      <section className="card" aria-labelledby="reg-h">
        <h2 id="reg-h">Register a bot</h2>
        <form onSubmit={register} noValidate>
          <label htmlFor="bot-name">Name</label>
          <input
            id="bot-name"
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={64}
            autoComplete="off"
          />
          <label htmlFor="bot-url">URL</label>
          <input
            id="bot-url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://bot.example.com/play"
            autoComplete="off"
            aria-describedby="bot-url-hint"
          />
          <p id="bot-url-hint" className="field-hint">
            Where your bot listens. It must answer GET /ping with pong and accept a WebSocket upgrade there. Only you
            ever see this URL.
          </p>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={check.phase === 'running'}>
              Register and check
            </button>
          </div>
        </form>
        <CheckSteps state={check} />
        {notice && (
          <p className="ok" role="status">
            {notice}
          </p>
        )}
      </section>
      <section aria-labelledby="list-h">
        <h2 id="list-h">Your bots</h2>
        {bots.error && (
          <p className="error" role="alert">
            {bots.error}
          </p>
        )}
        {bots.data && bots.data.bots.length === 0 && <p className="muted">You have no bots yet.</p>}
        {bots.data?.bots.map((b) => (
          <BotCard key={b.id} bot={b} onChange={bots.reload} />
        ))}
      </section>
    </>
  );
}

function BotCard({ bot, onChange }: { bot: Bot; onChange: () => void }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'url' | 'remove'>('view');
  const [name, setName] = useState(bot.name);
  const [url, setUrl] = useState(bot.url);
  const [check, setCheck] = useState<CheckState>({ phase: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const idp = `bot-${bot.id}`;

  const done = () => {
    setMode('view');
    onChange();
    heading.current?.focus();
  };
  const act = async (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
      done();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const rename = (e: FormEvent) => {
    e.preventDefault();
    void act(() => updateBot(bot.id, { name: name.trim() }));
  };
  const changeUrl = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await withChecks(url.trim(), setCheck, setError, () => updateBot(bot.id, { url: url.trim() }));
    setBusy(false);
    if (r) done();
  };

  return (
    <article className="card" data-bot={bot.id} aria-labelledby={`${idp}-h`}>
      <h3 id={`${idp}-h`} ref={heading} tabIndex={-1}>
        <Link href={paths.bot(bot.id)}>{bot.name}</Link> <span className={`status ${bot.status}`}>{bot.status}</span>
      </h3>
      <dl className="facts">
        <dt>URL</dt>
        <dd className="mono" data-testid="bot-url">
          {bot.url}
        </dd>
        <dt>Id</dt>
        <dd className="mono">{bot.id}</dd>
        <dt>Registered</dt>
        <dd>{formatTime(bot.createdAt)}</dd>
      </dl>
      {mode === 'view' && (
        <div className="row">
          <button type="button" onClick={() => setMode('rename')} aria-label={`Rename ${bot.name}`}>
            Rename
          </button>
          <button
            type="button"
            onClick={() => {
              setCheck({ phase: 'idle' });
              setMode('url');
            }}
            aria-label={`Change the URL of ${bot.name}`}
          >
            Change URL
          </button>
          {/* Qualifying and failed bots may be paused too: pausing wins over qualification. */}
          {bot.status !== 'paused' ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => void act(() => pauseBot(bot.id))}
              aria-label={`Pause ${bot.name}`}
            >
              Pause
            </button>
          ) : (
            <button
              type="button"
              disabled={busy}
              onClick={() => void act(() => resumeBot(bot.id))}
              aria-label={`Resume ${bot.name}`}
            >
              Resume
            </button>
          )}
          <button type="button" className="danger" onClick={() => setMode('remove')} aria-label={`Remove ${bot.name}`}>
            Remove
          </button>
        </div>
      )}
      {mode === 'rename' && (
        <form onSubmit={rename} noValidate>
          <label htmlFor={`${idp}-name`}>New name</label>
          <input
            id={`${idp}-name`}
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={64}
            autoFocus
          />
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              Save name
            </button>
            <button
              type="button"
              onClick={() => {
                setMode('view');
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      {mode === 'url' && (
        <form onSubmit={changeUrl} noValidate>
          <label htmlFor={`${idp}-url`}>New URL</label>
          <input id={`${idp}-url`} type="url" value={url} onChange={(e) => setUrl(e.target.value)} autoFocus />
          <p className="field-hint">
            The new URL goes through the same checks as a new bot; the old one stays until they pass.
          </p>
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              Check and save URL
            </button>
            <button
              type="button"
              onClick={() => {
                setMode('view');
                setError(null);
                setCheck({ phase: 'idle' });
              }}
            >
              Cancel
            </button>
          </div>
          <CheckSteps state={check} />
        </form>
      )}
      {mode === 'remove' && (
        <div role="alertdialog" aria-labelledby={`${idp}-rm`} className="row">
          <p id={`${idp}-rm`}>
            Remove {bot.name}? It leaves matchmaking at once; a running match finishes and old records keep its name.
            This cannot be undone.
          </p>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => void act(() => removeBot(bot.id))}
            autoFocus
          >
            Yes, remove {bot.name}
          </button>
          <button type="button" onClick={() => setMode('view')}>
            Keep it
          </button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
