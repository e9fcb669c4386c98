// Every relative link in the docs a reader follows resolves: README.md,
// CONTRIBUTING.md, docs/**/*.md, bench/README.md, engine/README.md and the
// examples' READMEs. A link names a file or
// directory that exists; a #anchor names a heading of the target (GitHub's
// slugs). Links to the web are not fetched (tests stay on 127.0.0.1).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');

/** The markdown files whose links must resolve, relative to root. */
function checkedFiles(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? docs(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', 'engine/README.md', ...docs('docs'), ...docs('examples')];
}

/** Text outside fenced code blocks. */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** Inline links and images `[x](target)`, and reference definitions `[x]: target`. */
function linkTargets(text: string): string[] {
  const body = prose(text);
  const inline = [...body.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const refs = [...body.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]);
  return [...inline, ...refs];
}

/** GitHub's anchor for each heading of a markdown text (duplicates get -1, -2, ...). */
function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutFences(text)
    .replace(/`([^`\n]*)`/g, '$1')
    .matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The links of one file (path relative to base) that do not resolve, each with why. */
function brokenLinks(base: string, file: string): string[] {
  const text = readFileSync(join(base, file), 'utf8');
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not fetched
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const path = pathPart === '' ? join(base, file) : resolve(join(base, dirname(file)), decodeURIComponent(pathPart));
    if (relative(base, path).startsWith('..')) {
      broken.push(`${file}: ${target} points outside the repository`);
      continue;
    }
    if (!existsSync(path)) {
      broken.push(`${file}: ${target}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(path).isDirectory() || !path.endsWith('.md')) {
      broken.push(`${file}: ${target}: an anchor into something that is not a markdown file`);
      continue;
    }
    if (!headingAnchors(readFileSync(path, 'utf8')).has(anchor))
      broken.push(`${file}: ${target}: no heading #${anchor} in ${relative(base, path)}`);
  }
  return broken;
}

describe('relative links in the docs', () => {
  it('every one resolves to a file, and every #anchor to a heading', () => {
    const files = checkedFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'CONTRIBUTING.md',
        'bench/README.md',
        'docs/architecture.md',
        'docs/operating.md',
        'docs/decisions.md',
        'docs/rules.md',
      ]),
    );
    const links = files.flatMap((f) => linkTargets(readFileSync(join(root, f), 'utf8')));
    expect(links.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => brokenLinks(root, f))).toEqual([]);
  });

  it('the README stays short: at most 200 lines', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('the check finds a missing file, a missing heading and a way out of the repository', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-links-'));
    try {
      writeFileSync(
        join(dir, 'a.md'),
        "# A\n\n```sh\n# not a heading\n```\n\n## The `arena` board, 1. hexes\n\nSee [not one](#not-a-heading),  [b](b.md), [here](#the-arena-board-1-hexes), [x](#nowhere),\n[b's part](b.md#part-two), [gone](gone.md), [up](../x.md), [web](https://example.com/x).\n\n```md\n[in code](ignored.md)\n```\n",
      );
      writeFileSync(join(dir, 'b.md'), '# B\n\n## Part one\n');
      expect(brokenLinks(dir, 'a.md')).toEqual([
        'a.md: #not-a-heading: no heading #not-a-heading in a.md',
        'a.md: #nowhere: no heading #nowhere in a.md',
        'a.md: b.md#part-two: no heading #part-two in b.md',
        'a.md: gone.md: no such file',
        'a.md: ../x.md points outside the repository',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
