import type { Readable } from 'node:stream';
import { BoxClient, BoxDeveloperTokenAuth } from 'box-node-sdk';
import { BoxApiError } from 'box-node-sdk/box';
import { BaseUrls, BoxRetryStrategy, NetworkSession } from 'box-node-sdk/networking';
import type { Config } from '../../config.js';
import { errorForStatus, networkError } from './errors.js';
import type { HostConfig } from './hosts.js';
import { readRange } from './http-source.js';
import { CloudAuthError, CloudRefusedError } from './types.js';
import type { CloudFileFacts, CloudFileRef, CloudSource } from './types.js';

const BOX_ID = /^\d{1,20}$/;

/**
 * Box, with the token the Content Picker's sign-in gave. The file's facts come through box-node-sdk
 * (`files.getFileById`, aimed at BOX_API_URL, its own retries off: the import worker retries). The bytes
 * come from `GET /2.0/files/{id}/content` with a Range header, which Box answers with a 302 to a
 * pre-authenticated download host (the token does not follow it) or, for a file not ready yet, a 202
 * with Retry-After; read with our own fetch, because the SDK's download calls do not hand back that
 * Retry-After.
 */
export function createBoxSource(config: Pick<Config, 'BOX_API_URL'> & HostConfig): CloudSource {
  const networkSession = new NetworkSession({
    baseUrls: new BaseUrls({ baseUrl: config.BOX_API_URL }),
    retryStrategy: new BoxRetryStrategy({ maxAttempts: 1, maxRetriesOnException: 0 }),
  });

  function fileId(ref: CloudFileRef): string {
    if (!ref.fileId || !BOX_ID.test(ref.fileId))
      throw new CloudRefusedError('This is not a Box file id.', 400);
    return ref.fileId;
  }

  return {
    provider: 'box',

    async describe(ref, token): Promise<CloudFileFacts> {
      const id = fileId(ref);
      if (!token) throw new CloudAuthError('Box needs the client to sign in again.');
      const client = new BoxClient({ auth: new BoxDeveloperTokenAuth({ token }), networkSession });
      try {
        const file = await client.files.getFileById(id, { queryParams: { fields: ['name', 'size'] } });
        return { name: file.name ?? null, size: file.size ?? null, mimeType: null };
      } catch (error) {
        if (error instanceof BoxApiError) {
          const headers = error.responseInfo.headers as Record<string, string> | undefined;
          throw errorForStatus(error.responseInfo.statusCode, headers?.['retry-after'], error.message);
        }
        throw networkError(error);
      }
    },

    read(ref, token, range, signal): Promise<Readable> {
      const url = `${config.BOX_API_URL}/2.0/files/${fileId(ref)}/content`;
      return readRange(config, 'box', url, range, { token, signal });
    },
  };
}
