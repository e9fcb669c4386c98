// Command texts read alike everywhere they are listed (arena --help, each
// command's --help, the man pages' NAME lines): every summary, description,
// argument and option text starts with a lower-case word, unless that word
// is an acronym or a name written in capitals (HTTP, JSON, Ed25519).
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main';

/** True when text starts the house way: a lower-case word, a symbol (`--x`, "<url>"), or a capitalised acronym. */
function startsLowerCase(text: string): boolean {
  const first = text.trim().split(/[\s:,;.(]/)[0];
  if (!/^[A-Z]/.test(first)) return true;
  // An acronym or a name with digits keeps its capitals: HTTP, JSON, URL, Ed25519.
  return /^[A-Z0-9]{2,}s?$/.test(first) || /\d/.test(first);
}

function texts(cmd: Command, name: string): Array<[where: string, text: string]> {
  const out: Array<[string, string]> = [];
  const summary = cmd.summary();
  if (summary) out.push([`${name}: summary`, summary]);
  if (cmd.description()) out.push([`${name}: description`, cmd.description()]);
  for (const a of cmd.registeredArguments) if (a.description) out.push([`${name} <${a.name()}>`, a.description]);
  for (const o of cmd.options) if (o.description) out.push([`${name} ${o.flags}`, o.description]);
  for (const sub of cmd.commands) out.push(...texts(sub, `${name} ${sub.name()}`));
  return out;
}

describe('command descriptions', () => {
  const all = texts(buildProgram(), 'arena');

  it('cover every command, argument and option', () => {
    expect(all.length).toBeGreaterThan(150);
  });

  it('all start with a lower-case word', () => {
    expect(
      all.filter(([, text]) => !startsLowerCase(text)).map(([where, text]) => `${where}: ${text.slice(0, 60)}`),
    ).toEqual([]);
  });

  it('the check tells the two apart', () => {
    expect(
      ['run a tournament', 'HTTP method', 'Ed25519 key', '--json prints', 'JSON output'].map(startsLowerCase),
    ).toEqual([true, true, true, true, true]);
    expect(['Run a tournament', 'Every bot', 'A key'].map(startsLowerCase)).toEqual([false, false, false]);
  });
});
