import type { CloudProvider } from '@avp/shared';

/** What a sign-in or a refresh gives. */
export interface TokenSet {
  accessToken: string;
  /** ms since the epoch; null when the provider did not say. */
  expiresAt: number | null;
  /**
   * What keeps the account connected, kept encrypted: the refresh token, or for OneDrive msal-node's
   * serialized token cache (which holds the refresh token msal manages). Null: keep the previous one.
   */
  secret: string | null;
  scopes: string[];
}

export interface AccountIdentity {
  email: string | null;
  name: string | null;
}

/** A file or folder in a connected account, as the browse panel shows it. */
export interface CloudItem {
  provider: CloudProvider;
  /** The id the provider and our API name it by (Drive file id, Dropbox 'id:…', Box id, Graph item id). */
  id: string;
  /**
   * OneDrive only: the drive the item is in (Graph's parentReference.driveId). The API takes it apart
   * from the item id, since both may contain '!'.
   */
  driveId?: string;
  name: string;
  folder: boolean;
  /** Bytes; null for folders and when unknown. */
  size: number | null;
  /** ISO time of the last change, when the provider says. */
  modifiedAt: string | null;
  mimeType: string | null;
  /** Where it is, when the provider says (Dropbox's path, say). */
  path: string | null;
  /** How to name it again: `drive:ID`, `dropbox:id:…`, `box:ID`, `onedrive:ITEM_ID` (Graph's item id, in the account's own drive). */
  ref: string;
}

export interface CloudFolder {
  /** The folder's id (null: the account's root). */
  id: string | null;
  items: CloudItem[];
}

/** One provider's sign-in and API, behind one shape (providers/*.ts). */
export interface ProviderAdapter {
  readonly provider: CloudProvider;
  /** Starts a sign-in for this loopback redirect: the address to open, and the code's exchange. */
  begin(
    redirectUri: string,
    state: string,
  ): Promise<{ url: string; finish(code: string): Promise<TokenSet> }>;
  refresh(secret: string): Promise<TokenSet>;
  /** Revokes the grant where the provider can; false when it cannot (the caller only forgets it). */
  revoke(secret: string, accessToken: string | null): Promise<boolean>;
  whoami(accessToken: string, tokens: TokenSet): Promise<AccountIdentity>;
  list(accessToken: string, folderId: string | null): Promise<CloudFolder>;
  search(accessToken: string, query: string): Promise<CloudItem[]>;
  /** A file named by its id, or (Dropbox) its path. */
  resolve(accessToken: string, idOrPath: string): Promise<CloudItem>;
}
