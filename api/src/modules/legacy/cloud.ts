import type { CloudProvider } from '@avp/shared';
import { CLOUD_PROVIDERS } from '@avp/shared';
import { FOREIGN_LINK, isProviderUrl } from '../../adapters/cloud/index.js';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import { startImport } from '../imports/index.js';
import type { ImportsDeps } from '../imports/index.js';

/** SPEC §3 'auth_file_url': file name to the provider's link and access token, for cloud-picked files. */
export type CloudPicks = Record<string, { link: string; token?: string | undefined }>;

type Pick = { provider: CloudProvider; fileId?: string; driveId?: string; link?: string };

/**
 * The provider and the file a pick's link names. The original's pickers hand over a link: Drive's
 * file or API address (the id is what the server reads by), a Box file page or API address, a Graph
 * item address, or a Dropbox direct link (read as it is). A link on no provider's hosts is refused.
 */
export function pickFromLink(config: Config, link: string): Pick {
  const url = URL.parse(link);
  const provider = url && CLOUD_PROVIDERS.find((p) => isProviderUrl(config, p, link) || isPickerPage(p, url));
  if (!url || !provider)
    throw new AppError(400, 'foreign_link', FOREIGN_LINK, { auth_file_url: FOREIGN_LINK });
  const path = url.pathname;
  const id = (re: RegExp) => re.exec(path)?.[1];
  switch (provider) {
    case 'google-drive': {
      const fileId =
        id(/\/file\/d\/([\w-]+)/) ?? id(/\/drive\/v3\/files\/([\w-]+)/) ?? url.searchParams.get('id');
      return fileId ? { provider, fileId } : { provider, link };
    }
    case 'box': {
      const fileId = id(/\/(?:file|files)\/(\d+)/);
      return fileId ? { provider, fileId } : { provider, link };
    }
    case 'onedrive': {
      const match = /\/drives\/([^/]+)\/items\/([^/]+)/.exec(path);
      return match
        ? { provider, driveId: decoded(match[1]!), fileId: decoded(match[2]!) }
        : { provider, link };
    }
    default:
      return { provider, link };
  }
}

/** A path segment as the provider means it (`%21` is a personal item id's `!`); a malformed one as sent. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The pages users copy links from, which are not where the server reads bytes. */
function isPickerPage(provider: CloudProvider, url: URL): boolean {
  if (url.protocol !== 'https:') return false;
  const pages: Partial<Record<CloudProvider, string[]>> = {
    'google-drive': ['drive.google.com', 'docs.google.com'],
    box: ['app.box.com'],
  };
  return (pages[provider] ?? []).includes(url.hostname);
}

/**
 * Brings cloud-picked files into a submission: each pick becomes a server-side import (modules/imports),
 * copied by the import worker into the same storage as uploaded files. Posting the same picks again
 * (init, then send) answers the same imports.
 */
export async function importCloudPicks(
  deps: ImportsDeps,
  user: SessionUser,
  submissionId: string,
  picks: CloudPicks | undefined,
): Promise<void> {
  if (picks === undefined) return;
  for (const [name, { link, token }] of Object.entries(picks)) {
    const pick = pickFromLink(deps.config, link);
    await startImport(deps, user, submissionId, { ...pick, name, ...(token ? { accessToken: token } : {}) });
  }
}
