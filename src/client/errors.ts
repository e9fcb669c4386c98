// The client's error, in its own module so that code which only needs to
// recognise it (the CLI's error mapping) does not load undici.
export class ClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientError';
  }
}
