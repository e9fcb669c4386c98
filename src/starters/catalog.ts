// The starters `arena new LANG DIR` writes: each is a directory under
// examples/ (shipped in the npm package, and carried by the single executable
// as assets under the same paths; scripts/build-binary.mjs), and the two
// commands a user runs next.

export const STARTER_LANGS = ['python', 'typescript', 'javascript', 'go'] as const;
export type StarterLang = (typeof STARTER_LANGS)[number];

export interface Starter {
  lang: StarterLang;
  /** The package path of its directory. */
  dir: string;
  summary: string;
  /** Run inside the new directory: installs what it needs and starts the bot on port 8080. */
  run: string;
  /** Tests it against the arena once it runs. */
  check: string;
}

export const STARTERS: Record<StarterLang, Starter> = {
  python: {
    lang: 'python',
    dir: 'examples/python-bot',
    summary: 'one Python 3.10+ file, one dependency (websockets)',
    run: 'pip install websockets && python3 bot.py --port 8080',
    check: 'arena bot check http://127.0.0.1:8080',
  },
  typescript: {
    lang: 'typescript',
    dir: 'examples/starter-bot',
    summary: "TypeScript on the bot-arena package: the engine's legal moves, the protocol's types (tsx, no build step)",
    run: 'npm install /path/to/bot-arena-<version>.tgz && npm start -- --port 8080',
    check: 'npx arena bot check http://127.0.0.1:8080',
  },
  javascript: {
    lang: 'javascript',
    dir: 'examples/javascript-bot',
    summary: 'plain Node.js (ESM), one dependency (ws), no build step',
    run: 'npm install && npm start -- --port 8080',
    check: 'arena bot check http://127.0.0.1:8080',
  },
  go: {
    lang: 'go',
    dir: 'examples/go-bot',
    summary: 'Go, the standard library plus gorilla/websocket',
    run: 'go mod tidy && go build -o bot . && ./bot --port 8080',
    check: 'arena bot check http://127.0.0.1:8080',
  },
};

export function isStarterLang(lang: string): lang is StarterLang {
  return (STARTER_LANGS as readonly string[]).includes(lang);
}

/**
 * Whether a file under a starter's directory is part of the starter, not
 * something installed or built in a working copy of it. scripts/build-binary.mjs
 * applies the same rule (STARTER_SKIP there) when it packs them.
 */
export function isStarterFile(relPath: string): boolean {
  return relPath.split('/').every((part) => !part.startsWith('.') && !SKIP.has(part) && !part.endsWith('.pyc'));
}

/** Installed or built in a working copy: dependencies, lockfiles, caches, the Go program, match records. */
const SKIP = new Set(['node_modules', 'package-lock.json', '__pycache__', 'bot', 'runs', 'dist', 'go.sum']);
