// How the CLI reports what its libraries throw: each known error class as a
// one-line message with its exit code (gh's convention: 1 failure, 2 usage,
// 4 authentication). A server's refusal (ApiError) gets the exit code the
// command family gives it. Anything else is returned as it came (a bug: the
// entry point reports it as unexpected).
import { ApiError } from '../client/api-error';
import { ClientError } from '../client/errors';
import { ConfigError, EmptyFlagError, MissingCredentialError, NoServerError } from '../config/errors';
import { KeyError } from '../keys/errors';
import { CliError, EXIT, noServerError } from './errors';

export function libraryCliError(err: unknown, apiExit: (refusal: ApiError) => number = () => EXIT.failure): unknown {
  if (err instanceof ApiError)
    return new CliError(`${err.serverMessage} (HTTP ${err.status} ${err.code})`, apiExit(err));
  // No server is a usage error (nothing was tried); a missing key is exit 4, like `gh`; an empty flag is a usage error.
  if (err instanceof NoServerError) return noServerError(err.message);
  if (err instanceof MissingCredentialError) return new CliError(err.message, EXIT.auth);
  if (err instanceof EmptyFlagError) return new CliError(err.message, EXIT.usage);
  if (err instanceof KeyError || err instanceof ConfigError || err instanceof ClientError)
    return new CliError(err.message, EXIT.failure);
  return err;
}
