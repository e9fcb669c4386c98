import { NO_SERVER_MESSAGE } from '../config/errors';

// Exit codes follow the gh convention: 0 ok, 1 failure, 2 usage error, 4 authentication failed.
export const EXIT = { ok: 0, failure: 1, usage: 2, auth: 4, interrupted: 130 } as const;

/** An error meant for the user: printed as one clear message, no stack, with a chosen exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/**
 * The one rule for "no server configured", for every command that talks to a
 * server: a usage error (exit 2), since nothing was tried. Not 4: no
 * credential was refused. `message` may add what else the command would take.
 */
export function noServerError(message: string = NO_SERVER_MESSAGE): CliError {
  return usageError(message);
}
