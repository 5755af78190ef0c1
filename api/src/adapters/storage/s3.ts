import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.js';
import { exactSize } from './local.js';
import { StorageUnavailableError } from './types.js';
import type { PartRef, UploadStorage } from './types.js';
import type { WriteSlots } from './write-slots.js';

export type S3Config = Pick<Config, 'S3_BUCKET' | 'S3_REGION' | 'S3_ENDPOINT' | 'S3_FORCE_PATH_STYLE'> &
  Partial<Pick<Config, 'S3_CONNECT_TIMEOUT_SECONDS' | 'S3_REQUEST_TIMEOUT_SECONDS' | 'S3_MAX_ATTEMPTS'>>;

// The SDK is loaded when an S3 driver is made, not with the server: a process on local storage keeps
// its heap without it, and a smaller heap makes every collection during an upload cheaper.
const load = () => createRequire(import.meta.url)('@aws-sdk/client-s3') as typeof S3Sdk;
let sdk: ReturnType<typeof load> | undefined;

function isMissing(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NoSuchUpload' || name === 'NoSuchKey' || name === 'NotFound';
}

const TRANSIENT_NAMES = new Set([
  'SlowDown',
  'InternalError',
  'ServiceUnavailable',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'TimeoutError',
  'ThrottlingException',
]);
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

/** A failure that may pass: S3 throttling or a 5xx, a connection refused, reset or timed out. */
function isTransient(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  if (!e) return false;
  if (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  const status = e.$metadata?.httpStatusCode;
  return typeof status === 'number' && status >= 500;
}

interface S3PartWrite {
  key: string;
  uploadId: string | null;
  partNumber: number;
  size: number;
  body: Readable;
  observe?: (chunk: Buffer) => void | Promise<void>;
}

/**
 * The S3 driver: each file is one S3 multipart upload, our parts mapped 1:1 onto S3 parts (the shared
 * plan keeps them within S3's 10,000-part limit and above its 5 MiB minimum). Each part is streamed from
 * the request to S3 with its Content-Length; nothing is buffered. Credentials come from the SDK's usual
 * chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role).
 */
export class S3Storage implements UploadStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  /**
   * For UploadPart only, with no retries of its own: a part's body is the client's request, read once,
   * which the SDK cannot send again. A part that fails goes back to the client (503), which sends it again.
   */
  private readonly partClient: S3Client;
  readonly bucket: string;

  constructor(
    config: S3Config,
    /** The process's limit on part writes at once (write-slots.ts); none: unlimited. */
    private readonly slots?: WriteSlots,
  ) {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required for STORAGE_DRIVER=s3');
    this.bucket = config.S3_BUCKET;
    sdk ??= load();
    const common = {
      region: config.S3_REGION ?? 'us-east-1',
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      // Streamed bodies go as they are: no aws-chunked trailing checksums (not every S3-compatible
      // store speaks them); the whole file's sha-256 is verified on completion instead.
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
      // No wait on S3 without an end (issue 28): connecting, then silence on the socket mid-request.
      requestHandler: {
        connectionTimeout: (config.S3_CONNECT_TIMEOUT_SECONDS ?? 10) * 1000,
        socketTimeout: (config.S3_REQUEST_TIMEOUT_SECONDS ?? 60) * 1000,
      },
    };
    // The SDK's standard retry strategy: throttling (503 SlowDown), 5xx, resets and timeouts are tried
    // again with exponential backoff and jitter, within a retry quota.
    this.client = new sdk.S3Client({
      ...common,
      retryMode: 'standard',
      maxAttempts: config.S3_MAX_ATTEMPTS ?? 5,
    });
    this.partClient = new sdk.S3Client({ ...common, maxAttempts: 1 });
  }

  /** Sends a command; a failure that may pass becomes StorageUnavailableError (503 to the caller). */
  private async send<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isTransient(error)) throw new StorageUnavailableError(operation, error);
      throw error;
    }
  }

  async check(): Promise<void> {
    await this.client.send(new sdk!.HeadBucketCommand({ Bucket: this.bucket }));
  }

  async begin(key: string, size: number, contentType: string): Promise<string | null> {
    // An empty file has no parts; finish() writes it as an empty object.
    if (size === 0) return null;
    const out = await this.send('begin an upload', () =>
      this.client.send(
        new sdk!.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
      ),
    );
    if (!out.UploadId) throw new Error('S3 gave no UploadId');
    return out.UploadId;
  }

  writePart(args: S3PartWrite): Promise<string | null> {
    return this.slots ? this.slots.run(args.body, () => this.store(args)) : this.store(args);
  }

  private async store(args: S3PartWrite): Promise<string | null> {
    const counted = args.body.pipe(exactSize(args.size, args.observe));
    const failed = (error: Error) => counted.destroy(error);
    args.body.once('error', failed);
    // Once the SDK has given up on the request nobody reads `counted`; a later failure of the body (the
    // client leaving after its answer) must not become an unhandled 'error' event.
    counted.on('error', () => undefined);
    const out = await this.send('store a part', () =>
      this.partClient.send(
        new sdk!.UploadPartCommand({
          Bucket: this.bucket,
          Key: args.key,
          UploadId: args.uploadId ?? undefined,
          PartNumber: args.partNumber,
          ContentLength: args.size,
          Body: counted,
        }),
      ),
    );
    args.body.off('error', failed);
    return out.ETag ?? null;
  }

  async finish(args: {
    key: string;
    uploadId: string | null;
    parts: PartRef[];
    size: number;
  }): Promise<void> {
    if (args.parts.length === 0) {
      // S3 wants at least one part; an empty file is an empty object.
      if (args.uploadId) await this.abandon(args.key, args.uploadId);
      await this.send('write an empty file', () =>
        this.client.send(
          new sdk!.PutObjectCommand({ Bucket: this.bucket, Key: args.key, Body: '', ContentLength: 0 }),
        ),
      );
      return;
    }
    try {
      await this.send('join the parts', () =>
        this.client.send(
          new sdk!.CompleteMultipartUploadCommand({
            Bucket: this.bucket,
            Key: args.key,
            UploadId: args.uploadId ?? undefined,
            MultipartUpload: {
              Parts: [...args.parts]
                .sort((a, b) => a.partNumber - b.partNumber)
                .map((p) => ({ PartNumber: p.partNumber, ETag: p.etag ?? undefined })),
            },
          }),
        ),
      );
    } catch (error) {
      // A completion S3 carried out but whose answer was lost (a reset, a timeout) has no multipart
      // upload left for the SDK's retry to complete: S3 answers NoSuchUpload (some S3-compatible stores
      // an error of their own). The object is then there, whole: done, not left half-done. (Wrong bytes
      // would still be caught by the size and sha-256 checks that follow.)
      const lost = isMissing(error) || error instanceof StorageUnavailableError;
      if (!lost || (await this.size(args.key).catch(() => -1)) !== args.size) throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const out = await this.send('read a file', () =>
      this.client.send(
        new sdk!.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      ),
    );
    return out.Body as Readable;
  }

  async size(key: string): Promise<number> {
    const out = await this.send('look at a file', () =>
      this.client.send(new sdk!.HeadObjectCommand({ Bucket: this.bucket, Key: key })),
    );
    return out.ContentLength ?? 0;
  }

  async remove(key: string, uploadId: string | null): Promise<void> {
    if (uploadId) await this.abandon(key, uploadId);
    try {
      await this.client.send(new sdk!.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async abandon(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new sdk!.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (isMissing(error)) return;
      // Some S3-compatible stores (s3rver, the tests' stand-in) lack AbortMultipartUpload; their
      // leftover parts are for the bucket's AbortIncompleteMultipartUpload lifecycle rule (README).
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'MethodNotAllowed' || name === 'NotImplemented') return;
      throw error;
    }
  }
}
