export { sendSigned, requestTarget, ClientError } from './signed-request';
export type { SignedRequest, SignedResponse } from './signed-request';
export { formatResponseBody } from './format';
export { readBodyArg } from './body-arg';
export { fetchPlatformKey } from './platform-key';
