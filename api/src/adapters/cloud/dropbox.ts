import type { Readable } from 'node:stream';
import { Dropbox, DropboxResponseError } from 'dropbox';
import type { Config } from '../../config.js';
import { errorForStatus, networkError } from './errors.js';
import { providerFetch } from './hosts.js';
import type { HostConfig } from './hosts.js';
import { probeLink, readRange } from './http-source.js';
import { CloudAuthError, CloudRefusedError } from './types.js';
import type { CloudFileFacts, CloudFileRef, CloudSource } from './types.js';

/** Dropbox's temporary links last 4 hours; one is used for a little less. */
const TEMPORARY_LINK_MS = 3.5 * 3600_000;
/** 'id:…' file ids, or a path inside the user's Dropbox. */
const DROPBOX_REF = /^(id:[\w-]{1,128}|\/[^\0]{1,1024})$/;

/**
 * Dropbox, two ways. A pick from the Chooser (linkType 'direct') is a link on Dropbox's content hosts,
 * read as it is with Range requests and no token; it lasts 4 hours, after which the client picks again.
 * A file id (the desktop app's browse) is read through the `dropbox` SDK: `filesGetMetadata` for its
 * facts and `filesGetTemporaryLink` for a link to stream with Range (the SDK's `filesDownload` would
 * hold the whole file in memory). The SDK's requests go through providerFetch, aimed at
 * DROPBOX_API_URL and DROPBOX_CONTENT_URL.
 */
export function createDropboxSource(
  config: Pick<Config, 'DROPBOX_API_URL' | 'DROPBOX_CONTENT_URL'> & HostConfig,
): CloudSource {
  const links = new Map<string, { url: string; until: number }>();

  /** The SDK builds https://api.dropboxapi.com/2/…; the configured base URLs stand in for those origins. */
  const sdkFetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const base =
      url.hostname === 'content.dropboxapi.com' ? config.DROPBOX_CONTENT_URL : config.DROPBOX_API_URL;
    return providerFetch(config, 'dropbox', `${base}${url.pathname}${url.search}`, init);
  };

  function client(token: string | null): Dropbox {
    if (!token) throw new CloudAuthError('Dropbox needs the client to sign in again.');
    return new Dropbox({ accessToken: token, fetch: sdkFetch as unknown as typeof fetch });
  }

  function pathOf(ref: CloudFileRef): string {
    if (!ref.fileId || !DROPBOX_REF.test(ref.fileId))
      throw new CloudRefusedError('This is not a Dropbox file.', 400);
    return ref.fileId;
  }

  function failure(error: unknown): Error {
    if (error instanceof DropboxResponseError) {
      const summary = JSON.stringify(error.error ?? '');
      if (error.status === 409) {
        return /not_found|not_file/.test(summary)
          ? errorForStatus(404, null)
          : new CloudRefusedError('Dropbox refused this file.', 400);
      }
      return errorForStatus(
        error.status,
        (error.headers as Record<string, string> | undefined)?.['retry-after'],
        summary,
      );
    }
    return networkError(error);
  }

  async function temporaryLink(path: string, token: string | null, fresh: boolean): Promise<string> {
    const cached = links.get(path);
    if (!fresh && cached && cached.until > Date.now()) return cached.url;
    try {
      const { result } = await client(token).filesGetTemporaryLink({ path });
      links.set(path, { url: result.link, until: Date.now() + TEMPORARY_LINK_MS });
      return result.link;
    } catch (error) {
      throw failure(error);
    }
  }

  return {
    provider: 'dropbox',

    async describe(ref, token, signal): Promise<CloudFileFacts> {
      if (ref.link) return probeLink(config, 'dropbox', ref.link, null, signal);
      try {
        const { result } = await client(token).filesGetMetadata({ path: pathOf(ref) });
        if (result['.tag'] !== 'file')
          throw new CloudRefusedError('Folders cannot be imported: pick the files in it.', 400);
        return { name: result.name, size: result.size, mimeType: null };
      } catch (error) {
        throw error instanceof CloudRefusedError || error instanceof CloudAuthError ? error : failure(error);
      }
    },

    async read(ref, token, range, signal): Promise<Readable> {
      if (ref.link) return readRange(config, 'dropbox', ref.link, range, { signal });
      const path = pathOf(ref);
      try {
        return await readRange(config, 'dropbox', await temporaryLink(path, token, false), range, { signal });
      } catch (error) {
        // The temporary link ran out: the token may still get a new one.
        if (!(error instanceof CloudAuthError)) throw error;
        return readRange(config, 'dropbox', await temporaryLink(path, token, true), range, { signal });
      }
    },
  };
}
