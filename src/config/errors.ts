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

/** A setting's flag was given with nothing in it (`--url ""`): the command line is wrong, not the setup. */
export class EmptyFlagError extends ConfigError {
  constructor(flag: string) {
    super(`${flag} is empty; give a value or leave the flag out`);
    this.name = 'EmptyFlagError';
  }
}
