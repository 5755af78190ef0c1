import type { Readable } from 'node:stream';
import { Client, GraphError } from '@microsoft/microsoft-graph-client';
import type { Context, Middleware } from '@microsoft/microsoft-graph-client';
import type { Config } from '../../config.js';
import { errorForStatus, networkError } from './errors.js';
import { providerFetch } from './hosts.js';
import type { HostConfig } from './hosts.js';
import { readRange } from './http-source.js';
import { CloudRefusedError } from './types.js';
import type { CloudFileFacts, CloudFileRef, CloudSource } from './types.js';

/** '<drive id>!<item id>', as the portal's picker and the desktop app name a OneDrive file. */
const GRAPH_REF = /^([\w!.-]{1,128})!([\w!.-]{1,128})$/;

/**
 * OneDrive and SharePoint through Microsoft Graph. The item's facts come through the Graph client with a
 * middleware chain of our own: the token set on each request and the request sent through providerFetch
 * (the client's own authentication handler sends the token only to https Graph hosts, which a stand-in
 * on plain http is not). The bytes come from `items/{id}/content` with a Range header, which Graph
 * answers with a 302 to a short-lived pre-authenticated URL; the token does not follow it, and each part
 * asks for a fresh one, so none runs out mid-file.
 */
export function createOneDriveSource(config: Pick<Config, 'GRAPH_API_URL'> & HostConfig): CloudSource {
  const base = new URL(config.GRAPH_API_URL);
  const version = base.pathname.replace(/^\/+|\/+$/g, '') || 'v1.0';

  function client(token: string | null): Client {
    const auth: Middleware & { next?: Middleware } = {
      async execute(context: Context) {
        const headers = new Headers(context.options?.headers as ConstructorParameters<typeof Headers>[0]);
        if (token) headers.set('Authorization', `Bearer ${token}`);
        context.options = { ...context.options, headers };
        await auth.next!.execute(context);
      },
      setNext(next) {
        auth.next = next;
      },
    };
    const send: Middleware = {
      async execute(context: Context) {
        const url = typeof context.request === 'string' ? context.request : context.request.url;
        context.response = await providerFetch(config, 'onedrive', url, context.options as RequestInit);
      },
    };
    auth.setNext!(send);
    return Client.initWithMiddleware({ middleware: auth, baseUrl: base.origin, defaultVersion: version });
  }

  function parse(ref: CloudFileRef): { drive: string; item: string } {
    const match = ref.fileId ? GRAPH_REF.exec(ref.fileId) : null;
    if (!match) throw new CloudRefusedError('This is not a OneDrive file id.', 400);
    return { drive: match[1]!, item: match[2]! };
  }

  return {
    provider: 'onedrive',

    async describe(ref, token): Promise<CloudFileFacts> {
      const { drive, item } = parse(ref);
      try {
        const found = (await client(token)
          .api(`/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(item)}`)
          .select('id,name,size,file,folder')
          .get()) as { name?: string; size?: number; file?: { mimeType?: string }; folder?: unknown };
        if (found.folder || !found.file) {
          throw new CloudRefusedError('Folders cannot be imported: pick the files in it.', 400);
        }
        return { name: found.name ?? null, size: found.size ?? null, mimeType: found.file.mimeType ?? null };
      } catch (error) {
        if (error instanceof CloudRefusedError) throw error;
        if (error instanceof GraphError && error.statusCode > 0) {
          throw errorForStatus(error.statusCode, error.headers?.get('retry-after'), error.message);
        }
        throw networkError(error);
      }
    },

    read(ref, token, range, signal): Promise<Readable> {
      const { drive, item } = parse(ref);
      const url = `${config.GRAPH_API_URL}/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(item)}/content`;
      return readRange(config, 'onedrive', url, range, { token, signal });
    },
  };
}
