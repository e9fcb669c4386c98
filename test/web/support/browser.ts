// Debian's Chromium driven by playwright-core: never a downloaded browser.
// Each launch gets a fresh profile directory (so a cold cache and no
// cookies), removed again on close.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Screenshots go here (gitignored). */
export const RESULTS_DIR = resolve(__dirname, '..', '..', '..', 'test-results', 'web');

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, for tests to assert none happened. */
  errors: string[];
  close(): Promise<void>;
}

export async function openBrowser(opts: { width?: number; height?: number } = {}): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'arena-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: opts.width ?? 1200, height: opts.height ?? 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // The browser logs every HTTP error status (a 401 from GET /me is how the dashboard
    // learns nobody is signed in; tests provoke 400s and 422s); those are not script errors.
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of/.test(m.text()))
      errors.push(`console: ${m.text()}`);
  });
  return {
    context,
    page,
    errors,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const ROLES_NEEDING_NAMES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'menuitem',
  'option',
  'img',
  'alertdialog',
  'dialog',
  'group',
  'region',
  'log',
]);

interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  properties?: Array<{ name: string; value: { value: unknown } }>;
}

/**
 * Every control (and image, dialog, named region) on the page with an empty
 * accessible name, as Chromium's accessibility tree computes it. Groups and
 * regions without a name are not landmarks and are skipped.
 */
export async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    const bad: string[] = [];
    for (const n of nodes) {
      if (n.ignored) continue;
      const role = n.role?.value ?? '';
      if (!ROLES_NEEDING_NAMES.has(role)) continue;
      if (role === 'group' || role === 'region') continue;
      const name = (n.name?.value ?? '').trim();
      if (!name) bad.push(`${role} (AX node ${n.nodeId})`);
    }
    return bad;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** The names of every focusable control, in tab order, reached by pressing Tab (keyboard only). */
export async function tabThrough(page: Page, max = 80): Promise<string[]> {
  const seen: string[] = [];
  // Browser-side code as strings: the test program is typed without the DOM.
  // Start from the top of the page, as after a fresh load: focus the body itself.
  await page.evaluate(
    "(() => { const b = document.body; b.setAttribute('tabindex', '-1'); b.focus(); b.removeAttribute('tabindex'); })()",
  );
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const d = await page.evaluate<string | null>(`(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      return el.tagName.toLowerCase() + ':' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
    })()`);
    if (d === null || seen[0] === d) break;
    seen.push(d);
  }
  return seen;
}
