// Man pages generated from the commander definitions, so `man arena-play`
// and `arena play --help` can never disagree. One page per command.
import type { Command } from 'commander';

export interface ManPage {
  file: string;
  content: string;
}

/** Full `--help` text of a command, including text added with addHelpText. */
function helpText(cmd: Command): string {
  let out = '';
  const saved = cmd.configureOutput();
  cmd.configureOutput({
    ...saved,
    writeOut: (s) => {
      out += s;
    },
    writeErr: (s) => {
      out += s;
    },
    getOutHelpWidth: () => 80,
    getErrHelpWidth: () => 80,
  });
  try {
    cmd.outputHelp();
  } finally {
    cmd.configureOutput(saved);
  }
  return out;
}

function roffEscape(line: string): string {
  const escaped = line.replace(/\\/g, '\\e').replace(/-/g, '\\-');
  // A line starting with . or ' would be read as a roff request.
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}

function fullName(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names;
}

export function renderManPages(program: Command, version: string): ManPage[] {
  const pages: ManPage[] = [];
  const visit = (cmd: Command): void => {
    const names = fullName(cmd);
    const title = names.join('-');
    const lines = [
      `.TH ${title.toUpperCase()} 1 "" "arena ${version}" "Bot Arena"`,
      '.SH NAME',
      `${roffEscape(title)} \\- ${roffEscape(cmd.description().split('\n')[0] || names.join(' '))}`,
      '.SH SYNOPSIS',
      `.B ${roffEscape(names.join(' '))}`,
      roffEscape(cmd.usage()),
      '.SH DESCRIPTION',
      '.nf',
      ...helpText(cmd).trimEnd().split('\n').map(roffEscape),
      '.fi',
    ];
    const subs = cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
    if (subs.length || cmd.parent) {
      const related = [
        ...subs.map((c) => `${title}-${c.name()}`),
        ...(cmd.parent ? [fullName(cmd.parent).join('-')] : []),
      ];
      lines.push('.SH SEE ALSO', related.map((r) => `.BR ${roffEscape(r)} (1)`).join(',\n'));
    }
    pages.push({ file: `${title}.1`, content: lines.join('\n') + '\n' });
    subs.forEach(visit);
  };
  visit(program);
  return pages;
}
