import type { CloudProvider } from '@avp/shared';
import type { Config } from '../../config.js';
import type { CloudSource } from './types.js';

export * from './types.js';
export { FOREIGN_LINK, isProviderUrl, assertProviderUrl } from './hosts.js';

export type CloudSources = ReadonlyMap<CloudProvider, CloudSource>;

/**
 * A provider whose SDK is loaded at its first import, not at start-up: the four SDKs weigh tens of
 * megabytes of heap that a process serving the site, the store and direct uploads never needs, and a
 * larger heap makes every garbage collection of an upload's buffers dearer.
 */
function onFirstUse(provider: CloudProvider, load: () => Promise<CloudSource>): CloudSource {
  let loading: Promise<CloudSource> | undefined;
  const source = () => (loading ??= load());
  return {
    provider,
    describe: async (ref, token, signal) => (await source()).describe(ref, token, signal),
    read: async (ref, token, range, signal) => (await source()).read(ref, token, range, signal),
  };
}

/**
 * The server's side of each provider. The server needs no keys of its own to read a file: the client's
 * picker (or the desktop app's sign-in) hands it an access token scoped to what the user picked.
 */
export function createCloudSources(config: Config): CloudSources {
  const sources: CloudSource[] = [
    onFirstUse('google-drive', async () => (await import('./drive.js')).createDriveSource(config)),
    onFirstUse('dropbox', async () => (await import('./dropbox.js')).createDropboxSource(config)),
    onFirstUse('box', async () => (await import('./box.js')).createBoxSource(config)),
    onFirstUse('onedrive', async () => (await import('./onedrive.js')).createOneDriveSource(config)),
  ];
  return new Map(sources.map((source) => [source.provider, source]));
}
