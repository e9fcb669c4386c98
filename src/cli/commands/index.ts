// Every command module, in the order `arena --help` lists them.
import type { Command } from 'commander';
import { register as demo } from './demo';
import { register as play } from './play';
import { register as simulate } from './simulate';
import { register as replay } from './replay';
import { register as bot } from './bot';
import { register as keys } from './keys';
import { register as sign } from './sign';
import { register as api } from './api';
import { register as login } from './login';
import { register as board } from './board';

export const commands: Array<(program: Command) => void> = [demo, play, simulate, replay, bot, board, keys, sign, api, login];
