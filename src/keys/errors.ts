/**
 * A key or signature input that cannot be used. The message says what is wrong
 * and what to do; it never contains key material.
 */
export class KeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyError';
  }
}
