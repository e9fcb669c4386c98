// Every command module, in the order `arena --help` lists them. A command
// module exports `register(program, io)`: it adds its commander command and
// writes only to io.stdout / io.stderr, reads io.env and io.cwd (see ../io.ts).
//
// Start-up: every module here is loaded to build the program, for `arena
// --help` as for any command. So a command module imports statically only
// what defining the command needs (commander, errors, small constants) and
// loads its libraries when the action runs: `const { x } = await import(...)`
// at the start of the action. The bundle splits at each import() (esbuild
// code splitting), and test/e2e/package-lazy-load.test.ts checks that help and
// `keys public` load no Ink, React, undici, openskill or view schemas.
import type { Command } from 'commander';
import type { CliIO } from '../io';
import { register as demo } from './demo';
import { register as play } from './play';
import { register as simulate } from './simulate';
import { register as replay } from './replay';
import { register as position } from './position';
import { register as bot } from './bot';
import { register as keys } from './keys';
import { register as sign } from './sign';
import { register as api } from './api';
import { register as login } from './login';
import { register as me } from './me';
import { register as bots } from './bots';
import { register as challenge } from './challenge';
import { register as webhooks } from './webhooks';
import { register as admin } from './admin';
import { register as serve } from './serve';
import { register as matches } from './matches';
import { register as leaderboard } from './leaderboard';
import { register as watch } from './watch';
import { register as board } from './board';
import { register as rules } from './rules';
import { register as schema } from './schema';
import { register as newStarter } from './new';

export type RegisterCommand = (program: Command, io: CliIO) => void;

export const commands: RegisterCommand[] = [
  demo,
  play,
  simulate,
  replay,
  position,
  bot,
  newStarter,
  rules,
  board,
  schema,
  keys,
  sign,
  api,
  login,
  me,
  bots,
  challenge,
  webhooks,
  matches,
  leaderboard,
  watch,
  serve,
  admin,
];
