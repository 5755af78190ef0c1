/** Errors of the cloud-account flows, each with a code the app and the CLI can act on and a sentence to show. */
export type CloudErrorCode =
  | 'not_configured'
  | 'not_connected'
  | 'denied'
  | 'state_mismatch'
  | 'timeout'
  | 'cancelled'
  | 'token_refused'
  | 'reconnect'
  | 'not_found'
  | 'not_a_file'
  | 'bad_ref'
  | 'provider_error';

export class CloudAccountError extends Error {
  constructor(
    readonly code: CloudErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CloudAccountError';
  }
}
