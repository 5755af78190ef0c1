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

/** A Graph drive or item id: letters, digits, `_`, `.`, `-` and `!` (personal item ids: `D4648F06C91D9D3D!54927`). */
const GRAPH_ID = /^[\w!.-]{1,256}$/;

export interface GraphItemRef {
  driveId: string;
  itemId: string;
}

/**
 * The one-field `<drive id>!<item id>` older portals and desktop apps send, split only where it splits one
 * way: a personal item id starts with its drive id and a `!` (`d4648f06c91d9d3d!D4648F06C91D9D3D!54927`),
 * a business drive id is `b!…` and its item ids have no `!` (`b!Xy-z!01BYE5RZ…`), and with a single `!`
 * there is nothing to choose. Anything else is null: the client picks the file again.
 */
export function splitCombinedGraphId(combined: string): GraphItemRef | null {
  const personal = /^([0-9a-f]{1,16})!(\1![\w.-]+)$/i.exec(combined);
  if (personal) return { driveId: personal[1]!, itemId: personal[2]! };
  const business = /^(b![\w.-]+)!([\w.-]+)$/.exec(combined);
  if (business) return { driveId: business[1]!, itemId: business[2]! };
  const single = /^([\w.-]+)!([\w.-]+)$/.exec(combined);
  if (single) return { driveId: single[1]!, itemId: single[2]! };
  return null;
}

/**
 * How an import row keeps a OneDrive file (file_imports.source_file_id): `<drive id>/<item id>`, which
 * splits one way whatever `!` either id holds, since neither contains a `/`.
 */
export function graphItemKey(ref: GraphItemRef): string {
  return `${ref.driveId}/${ref.itemId}`;
}

/** The drive and item a pick or an import row names, or null when they cannot be told apart. */
export function graphItemOf(ref: Pick<CloudFileRef, 'fileId' | 'driveId'>): GraphItemRef | null {
  const { fileId, driveId } = ref;
  if (!fileId) return null;
  let found: GraphItemRef | null;
  if (driveId) found = { driveId, itemId: fileId };
  else if (fileId.includes('/')) {
    const [drive, item, ...rest] = fileId.split('/');
    found = rest.length === 0 && drive && item ? { driveId: drive, itemId: item } : null;
  } else found = splitCombinedGraphId(fileId);
  return found && GRAPH_ID.test(found.driveId) && GRAPH_ID.test(found.itemId) ? found : null;
}

export const AMBIGUOUS_ONEDRIVE_ID =
  'This OneDrive file could not be told apart from its drive. Please pick it again.';

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

  /** `drives/{drive-id}/items/{item-id}`, each segment encoded (a personal item id's `!` included). */
  function itemPath(ref: CloudFileRef): string {
    const found = graphItemOf(ref);
    if (!found) throw new CloudRefusedError(AMBIGUOUS_ONEDRIVE_ID, 400);
    return `drives/${encodeURIComponent(found.driveId)}/items/${encodeURIComponent(found.itemId)}`;
  }

  return {
    provider: 'onedrive',

    async describe(ref, token): Promise<CloudFileFacts> {
      const path = itemPath(ref);
      try {
        const found = (await client(token).api(`/${path}`).select('id,name,size,file,folder').get()) as {
          name?: string;
          size?: number;
          file?: { mimeType?: string };
          folder?: unknown;
        };
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
      const url = `${config.GRAPH_API_URL.replace(/\/+$/, '')}/${itemPath(ref)}/content`;
      return readRange(config, 'onedrive', url, range, { token, signal });
    },
  };
}
