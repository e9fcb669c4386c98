// The config errors, in their own module so that code which only needs to
// recognise them (the CLI's error mapping) does not load zod's profile schema.
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** A setting a command needs (server URL, key id, key file) is set nowhere. */
export class MissingCredentialError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'MissingCredentialError';
  }
}

/** What every command says when it needs a server and none is set (flag, environment or profile). */
export const NO_SERVER_MESSAGE =
  'no server configured: pass --url URL, set ARENA_URL, or run `arena login --url URL ...`';

/** No server URL is set anywhere. Nothing was tried, so every command treats it as a usage error (exit 2). */
export class NoServerError extends ConfigError {
  constructor() {
    super(NO_SERVER_MESSAGE);
    this.name = 'NoServerError';
  }
}

/** A setting's flag was given with nothing in it (`--url ""`): the command line is wrong, not the setup. */
export class EmptyFlagError extends ConfigError {
  constructor(flag: string) {
    super(`${flag} is empty; give a value or leave the flag out`);
    this.name = 'EmptyFlagError';
  }
}
