import type { Readable } from 'node:stream';
import type { CloudProvider } from '@avp/shared';

/** What the server knows of a picked file: the provider's id for it, or a link on the provider's hosts. */
export interface CloudFileRef {
  provider: CloudProvider;
  fileId: string | null;
  /** OneDrive: the drive the item `fileId` is in, when the client named it apart (graphItemOf). */
  driveId?: string | null;
  link: string | null;
}

/** What the provider says of a file before any byte is copied. */
export interface CloudFileFacts {
  name: string | null;
  /** Bytes, or null when the provider cannot say until the download starts. */
  size: number | null;
  mimeType: string | null;
}

/**
 * One cloud provider, reached through its SDK at the base URLs of the configuration (tests aim them at
 * stand-ins). Every URL a source fetches, links and redirects included, is on the provider's own hosts
 * (hosts.ts); anything else is a CloudRefusedError before a connection is made.
 */
export interface CloudSource {
  readonly provider: CloudProvider;
  /** Checks a pick before anything is stored: the link's host, and the metadata where the provider has it. */
  describe(ref: CloudFileRef, token: string | null, signal?: AbortSignal): Promise<CloudFileFacts>;
  /** Streams bytes start..end (inclusive) of the file, with an HTTP Range request. */
  read(
    ref: CloudFileRef,
    token: string | null,
    range: { start: number; end: number },
    signal?: AbortSignal,
  ): Promise<Readable>;
}

/** The token or link was refused or has expired, and only the client can give a new one. */
export class CloudAuthError extends Error {
  override name = 'CloudAuthError';
}

/** Worth another try later (a 5xx, a 429, a 202 'not ready yet', a dropped connection). */
export class CloudTransientError extends Error {
  override name = 'CloudTransientError';
  constructor(
    message: string,
    /** The provider's Retry-After, when it gave one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** Never going to work: a foreign host, a missing file, a Google Doc. The message is for the client. */
export class CloudRefusedError extends Error {
  override name = 'CloudRefusedError';
  constructor(
    message: string,
    /** The HTTP status our API answers with when this happens while starting an import. */
    readonly status: 400 | 404 | 413 | 415 = 400,
  ) {
    super(message);
  }
}
