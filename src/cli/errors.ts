// Exit codes follow the gh convention: 0 ok, 1 failure, 2 usage error, 4 authentication failed.
export const EXIT = { ok: 0, failure: 1, usage: 2, auth: 4, interrupted: 130 } as const;

/** An error meant for the user: printed as one clear message, no stack, with a chosen exit code. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.failure) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
