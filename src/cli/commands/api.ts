import type { Command } from 'commander';

// Placeholder: this command is not built yet.
export function register(_program: Command): void {}
