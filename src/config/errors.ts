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
