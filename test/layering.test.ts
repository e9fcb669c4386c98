// docs/architecture.md's layering, enforced: dependency-cruiser with the rules in
// .dependency-cruiser.cjs over the whole repository, plus proof on a small
// fixture tree that each kind of violation is caught.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseOptions, type IReporterOutput, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = resolve(__dirname, '..');
const SCANNED = ['engine', 'src', 'examples', 'test', 'bench', 'scripts', 'bin'];

async function cruiseAt(baseDir: string, dirs: string[]): Promise<IViolation[]> {
  const options: ICruiseOptions = {
    ...(await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'))),
    baseDir,
  };
  const tsConfig = extractTSConfig(join(root, 'tsconfig.json'));
  const cwd = process.cwd();
  // The rules' paths are relative to the directory cruised from.
  process.chdir(baseDir);
  let result: IReporterOutput;
  try {
    result = await cruise(dirs, options, undefined, { tsConfig });
  } finally {
    process.chdir(cwd);
  }
  if (typeof result.output === 'string') throw new Error('expected a cruise result object');
  return result.output.summary.violations;
}

const shown = (v: IViolation[]) => v.map((x) => `${x.rule.name}: ${x.from} -> ${x.to}`);
/** What each broken rule asks for (the engine's front door names its allowed modules), for the failure message. */
const why = (v: IViolation[]) =>
  [...new Set(v.map((x) => x.rule.name))].map((name) => `${name}: ${ruleComment(name)}`).join('\n');
const ruleComment = (name: string): string =>
  (
    createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as {
      forbidden: Array<{ name: string; comment: string }>;
    }
  ).forbidden.find((r) => r.name === name)?.comment ?? '';

describe('layering (docs/architecture.md)', () => {
  it('the repository has no dependency that breaks a layer rule', async () => {
    const violations = await cruiseAt(
      root,
      SCANNED.filter((d) => statSync(join(root, d), { throwIfNoEntry: false })?.isDirectory()),
    );
    expect(shown(violations), why(violations)).toEqual([]);
  });

  describe('each rule catches its violation', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'arena-layers-'));
    afterAll(() => rmSync(fixture, { recursive: true, force: true }));
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    };
    file('tsconfig.json', readFileSync(join(root, 'tsconfig.json'), 'utf8'));
    // A legal skeleton: each layer importing what it may.
    file('engine/game.ts', 'export const game = 1;\n');
    file('engine/index.ts', "export { game } from './game';\n");
    file('engine/view-bytes.ts', "import { game } from './game';\nexport const bytes = game;\n");
    file('src/protocol/index.ts', 'export const schema = 1;\n');
    file('src/keys/index.ts', 'export const sign = 1;\n');
    file('src/config/paths.ts', "import { sign } from '../keys/index';\nexport const dir = sign;\n");
    file('src/net/pinned-lookup.ts', 'export const lookup = 1;\n');
    file(
      'src/runner/index.ts',
      "import { game } from '../../engine/index';\nimport { bytes } from '../../engine/view-bytes';\nimport { schema } from '../protocol/index';\nimport { lookup } from '../net/pinned-lookup';\nexport const run = game + bytes + schema + lookup;\n",
    );
    file('src/probe/deploy-check.ts', "import { run } from '../runner/index';\nexport const check = run;\n");
    file('src/term/line.ts', 'export const line = 1;\n');
    file(
      'src/cli/main.ts',
      "import { run } from '../runner/index';\nimport { line } from '../term/line';\nexport const main = run + line;\n",
    );
    file('examples/bot/bot.ts', "import { game } from '../../engine/index';\nexport const bot = game;\n");
    file('test/support/bot.ts', "import { bot } from '../../examples/bot/bot';\nexport const testBot = bot;\n");

    const sources = () => readdirSync(fixture).filter((f) => f !== 'tsconfig.json');
    const cases: Array<[rule: string, path: string, text: string]> = [
      [
        'engine-stands-alone',
        'engine/bad.ts',
        "import type { schema } from '../src/protocol/index';\nexport type T = typeof schema;\n",
      ],
      [
        'protocol-imports-nothing',
        'src/protocol/bad.ts',
        "import { game } from '../../engine/index';\nexport const x = game;\n",
      ],
      ['keys-import-nothing', 'src/keys/bad.ts', "import { dir } from '../config/paths';\nexport const x = dir;\n"],
      ['runner-on-engine', 'src/runner/bad.ts', "import { line } from '../term/line';\nexport const x = line;\n"],
      [
        'runner-on-engine',
        'src/runner/bad2.ts',
        "import { check } from '../probe/deploy-check';\nexport const x = check;\n",
      ],
      ['net-imports-nothing', 'src/net/bad.ts', "import { run } from '../runner/index';\nexport const x = run;\n"],
      ['arena-is-a-library', 'src/arena/bad.ts', "import { line } from '../term/line';\nexport const x = line;\n"],
      ['arena-is-a-library', 'src/arena/bad2.ts', "import { main } from '../cli/main';\nexport const x = main;\n"],
      ['service-no-terminal', 'src/service/bad.ts', "import { main } from '../cli/main';\nexport const x = main;\n"],
      [
        'only-tests-import-examples',
        'src/cli/bad.ts',
        "import { bot } from '../../examples/bot/bot';\nexport const x = bot;\n",
      ],
      [
        'only-tests-import-tests',
        'src/cli/bad2.ts',
        "import { testBot } from '../../test/support/bot';\nexport const x = testBot;\n",
      ],
      [
        'examples-copyable',
        'examples/bot/bad.ts',
        "import { run } from '../../src/runner/index';\nexport const x = run;\n",
      ],
      [
        'engine-front-door',
        'src/runner/bad3.ts',
        "import { game } from '../../engine/game';\nexport const x = game;\n",
      ],
      [
        'engine-front-door',
        'src/tui/bad.ts',
        "import type { game } from '../../engine/game';\nexport type T = typeof game;\n",
      ],
      [
        'engine-front-door',
        'examples/bot/bad2.ts',
        "import { game } from '../../engine/game';\nexport const x = game;\n",
      ],
      ['every-import-resolves', 'src/cli/bad3.ts', "import { gone } from '../nowhere/gone';\nexport const x = gone;\n"],
    ];

    it('engine-front-door: the failure names the modules allowed', async () => {
      const path = 'src/cli/reach.ts';
      file(path, "import { game } from '../../engine/game';\nexport const x = game;\n");
      try {
        const violations = await cruiseAt(fixture, sources());
        expect(shown(violations)).toEqual(['engine-front-door: src/cli/reach.ts -> engine/game.ts']);
        for (const door of [
          'index.ts',
          'rules-version.ts',
          'bots/names.ts',
          'rules-data.ts',
          'board-data.ts',
          'view-bytes.ts',
        ])
          expect(why(violations)).toContain(`engine/${door}`);
      } finally {
        rmSync(join(fixture, path));
      }
    });

    it('the skeleton itself passes', async () => {
      expect(shown(await cruiseAt(fixture, sources()))).toEqual([]);
    });

    it('no-circular: two modules importing each other at run time', async () => {
      file('src/cli/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
      file('src/cli/b.ts', "import { a } from './a';\nexport const b = () => a;\n");
      try {
        const violations = await cruiseAt(fixture, sources());
        expect(violations.length).toBeGreaterThan(0);
        expect(new Set(violations.map((v) => v.rule.name))).toEqual(new Set(['no-circular']));
      } finally {
        rmSync(join(fixture, 'src/cli/a.ts'));
        rmSync(join(fixture, 'src/cli/b.ts'));
      }
    });

    for (const [rule, path, text] of cases) {
      it(`${rule}: ${path}`, async () => {
        file(path, text);
        try {
          const violations = await cruiseAt(fixture, sources());
          expect(shown(violations)).toEqual([expect.stringMatching(new RegExp(`^${rule}: ${path} -> `))]);
        } finally {
          rmSync(join(fixture, path));
        }
      });
    }
  });
});

describe('libraries the service uses', () => {
  // Not a dependency question, so not a cruiser rule: these directories must
  // not write to the terminal or end the process (the CLI's IO and exit codes do that).
  const LIBRARIES = [
    'engine',
    'src/arena',
    'src/runner',
    'src/net',
    'src/probe',
    'src/protocol',
    'src/keys',
    'src/config',
    'src/sim',
    'src/service',
  ];
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
    );

  it('never touch process.stdout/stderr/stdin or call process.exit', () => {
    const offenders = LIBRARIES.filter((d) => statSync(join(root, d), { throwIfNoEntry: false })?.isDirectory())
      .flatMap(files)
      .filter((f) => /process\.(exit|stdout|stderr|stdin)\b/.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('tests mirror the code (CONTRIBUTING.md)', () => {
  // A unit test lives at test/<the folder of the code it tests>; whole-program suites in test/e2e.
  const CODE_ROOTS = ['src', '.'];
  const tests = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? tests(join(dir, e.name)) : /\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
    );

  it('every test file is in test/e2e or in a folder that mirrors one of the code', () => {
    const astray = tests('test')
      .map((f) => dirname(f).replace(/^test\/?/, ''))
      .filter((d) => d !== '' && d !== 'e2e' && !d.startsWith('e2e/'))
      .filter((d) => !CODE_ROOTS.some((r) => statSync(join(root, r, d), { throwIfNoEntry: false })?.isDirectory()));
    expect([...new Set(astray)]).toEqual([]);
  });
});
