import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { drive as driveApi } from '@googleapis/drive';
import type { Config } from '../../config.js';
import { checkRange, errorForStatus, networkError } from './errors.js';
import { providerFetch } from './hosts.js';
import { nodeBodyOf } from './range-fetch.js';
import { CloudRefusedError } from './types.js';
import type { CloudFileFacts, CloudFileRef, CloudSource } from './types.js';

/** Docs, Sheets, Slides and the like: no bytes to copy, only an export the client did not ask for. */
export const GOOGLE_NATIVE_REFUSED =
  'Google Docs, Sheets and Slides have no file to copy. Download it as a file (File → Download) and send that instead.';

/** The SDK hands back either a Headers object or a plain record, depending on the path it took. */
function asHeaders(headers: unknown): Headers {
  return headers instanceof Headers ? headers : new Headers(headers as Record<string, string>);
}

/** A file id as Drive makes them (letters, digits, - and _), so nothing else reaches a URL path. */
const DRIVE_ID = /^[\w-]{1,256}$/;

/**
 * Google Drive through @googleapis/drive: `files.get` for the metadata and with `alt=media` and a Range
 * header for the bytes, with the token the Picker's Google Identity Services sign-in gave (drive.file
 * scope: only files the user picked). Every request goes through providerFetch, so the SDK cannot be
 * redirected off Google's hosts, and the SDK's own retries are off: the import worker retries with backoff.
 */
export function createDriveSource(
  config: Pick<Config, 'GOOGLE_API_URL'> & Parameters<typeof providerFetch>[0],
): CloudSource {
  const client = driveApi({ version: 'v3', rootUrl: `${config.GOOGLE_API_URL}/` });
  const fetchImplementation = (input: string | URL | Request, init?: RequestInit) =>
    providerFetch(config, 'google-drive', input instanceof Request ? input.url : input, init);

  function fileId(ref: CloudFileRef): string {
    if (!ref.fileId || !DRIVE_ID.test(ref.fileId)) {
      throw new CloudRefusedError('This is not a Google Drive file id.', 400);
    }
    return ref.fileId;
  }

  function options(
    token: string | null,
    signal: AbortSignal | undefined,
    headers: Record<string, string> = {},
  ) {
    return {
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
      retry: false,
      fetchImplementation,
      ...(signal ? { signal } : {}),
    };
  }

  function failure(error: unknown): Error {
    const status = (error as { status?: number; response?: { status?: number } }).response?.status;
    if (typeof status === 'number') {
      const response = (error as { response: { headers?: Headers | Record<string, string> } }).response;
      const retry = asHeaders(response.headers ?? {}).get('retry-after');
      return errorForStatus(status, retry, (error as Error).message);
    }
    return networkError(error);
  }

  return {
    provider: 'google-drive',

    async describe(ref, token, signal): Promise<CloudFileFacts> {
      const id = fileId(ref);
      try {
        const { data } = await client.files.get(
          { fileId: id, fields: 'id,name,size,mimeType', supportsAllDrives: true },
          options(token, signal),
        );
        if (typeof data.mimeType === 'string' && data.mimeType.startsWith('application/vnd.google-apps.')) {
          throw new CloudRefusedError(GOOGLE_NATIVE_REFUSED, 415);
        }
        return {
          name: data.name ?? null,
          size: data.size === undefined || data.size === null ? null : Number(data.size),
          mimeType: data.mimeType ?? null,
        };
      } catch (error) {
        throw error instanceof CloudRefusedError ? error : failure(error);
      }
    },

    async read(ref, token, range, signal): Promise<Readable> {
      const id = fileId(ref);
      try {
        const response = await client.files.get(
          { fileId: id, alt: 'media', supportsAllDrives: true },
          {
            ...options(token, signal, { Range: `bytes=${range.start}-${range.end}` }),
            responseType: 'stream',
          },
        );
        checkRange({ status: response.status, headers: asHeaders(response.headers) }, range);
        const body = response.data as unknown;
        if (body instanceof Readable) return body;
        // The body of our own fetch (providerFetch): its Node stream, without a web stream in between.
        return nodeBodyOf(body) ?? Readable.fromWeb(body as WebReadableStream<Uint8Array>);
      } catch (error) {
        throw failure(error);
      }
    },
  };
}
