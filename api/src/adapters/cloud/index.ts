import type { CloudProvider } from '@avp/shared';
import type { Config } from '../../config.js';
import { createBoxSource } from './box.js';
import { createDriveSource } from './drive.js';
import { createDropboxSource } from './dropbox.js';
import { createOneDriveSource } from './onedrive.js';
import type { CloudSource } from './types.js';

export * from './types.js';
export { FOREIGN_LINK, isProviderUrl, assertProviderUrl } from './hosts.js';
export { GOOGLE_NATIVE_REFUSED } from './drive.js';
export { AMBIGUOUS_ONEDRIVE_ID, graphItemKey, graphItemOf } from './onedrive.js';

export type CloudSources = ReadonlyMap<CloudProvider, CloudSource>;

/**
 * The server's side of each provider. The server needs no keys of its own to read a file: the client's
 * picker (or the desktop app's sign-in) hands it an access token scoped to what the user picked.
 */
export function createCloudSources(config: Config): CloudSources {
  const sources: CloudSource[] = [
    createDriveSource(config),
    createDropboxSource(config),
    createBoxSource(config),
    createOneDriveSource(config),
  ];
  return new Map(sources.map((source) => [source.provider, source]));
}
