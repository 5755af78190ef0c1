/**
 * Connected cloud accounts: connect one per provider through its desktop OAuth flow in the
 * system browser, keep it (store.ts), hand out fresh access tokens, browse and search it, and disconnect
 * it (revoked where the provider allows). Used alike by the Electron main process and av-upload.
 */
import { randomBytes } from 'node:crypto';
import type { CloudProvider } from '@avp/shared';
import { cloudSettings, notConfigured, parseProvider, PROVIDER_NAMES, REF_PREFIX } from './config.js';
import type { CloudSettings } from './config.js';
import { CloudAccountError } from './errors.js';
import { startLoopback } from './loopback.js';
import type { ProviderSettings } from './config.js';
import type { AccountRecord, AccountStore, SecretCipher } from './store.js';
import type { CloudFolder, CloudItem, ProviderAdapter, TokenSet } from './types.js';

/**
 * A provider's module, loaded when first used: the SDKs (msal-node, google-auth-library, dropbox) weigh
 * some 30 MB of heap, which an upload of local files, or a status, should not carry.
 */
async function loadAdapter(settings: ProviderSettings): Promise<ProviderAdapter> {
  switch (settings.provider) {
    case 'google-drive':
      return (await import('./providers/google-drive.js')).createGoogleDrive(settings);
    case 'dropbox':
      return (await import('./providers/dropbox.js')).createDropbox(settings);
    case 'box':
      return (await import('./providers/box.js')).createBox(settings);
    case 'onedrive':
      return (await import('./providers/onedrive.js')).createOneDrive(settings);
  }
}

/** A sign-in left in the browser longer than this ends with a 'timeout' error. */
export const CONNECT_TIMEOUT_MS = 5 * 60_000;
/** An access token is refreshed this long before the provider says it runs out. */
const EXPIRY_MARGIN_MS = 60_000;

export interface CloudAccountsOptions {
  store: AccountStore;
  cipher: SecretCipher;
  /** Opens the sign-in page in the system browser (Electron: shell.openExternal; the CLI: open/xdg-open/start). */
  openBrowser: (url: string, provider: CloudProvider) => void | Promise<void>;
  /** Defaults to cloudSettings(process.env). */
  settings?: CloudSettings;
  timeoutMs?: number;
  /** A fixed loopback port (AV_OAUTH_PORT) for a provider console that registers the exact redirect. */
  loopbackPort?: number;
  clock?: () => number;
}

export interface AccountSummary {
  provider: CloudProvider;
  providerName: string;
  email: string | null;
  name: string | null;
  scopes: string[];
  connectedAt: string;
}

export interface ProviderStatus {
  provider: CloudProvider;
  providerName: string;
  configured: boolean;
  /** Why it cannot be connected (set the variable it names), when not configured. */
  message: string | null;
  account: AccountSummary | null;
}

export interface DisconnectResult {
  provider: CloudProvider;
  /** Whether the provider was asked to revoke the grant (OneDrive cannot be: the sign-in is only forgotten). */
  revoked: boolean;
  message: string;
}

/** A ref such as `dropbox:/Events/keynote.mov`, `drive:FILE_ID`, `box:123`, `onedrive:ITEM_ID`. */
export function parseRef(ref: string): { provider: CloudProvider; target: string } {
  const at = ref.indexOf(':');
  const provider = at > 0 ? parseProvider(ref.slice(0, at)) : null;
  const target = at > 0 ? ref.slice(at + 1).trim() : '';
  if (!provider || !target)
    throw new CloudAccountError(
      'bad_ref',
      `Not a cloud file: ${ref} (write dropbox:/path/to/file, dropbox:id:…, drive:FILE_ID, box:FILE_ID or onedrive:ITEM_ID).`,
    );
  if (provider === 'dropbox' && !target.startsWith('/') && !target.startsWith('id:'))
    return { provider, target: `/${target}` };
  return { provider, target };
}

export class CloudAccounts {
  private readonly settings: CloudSettings;
  private readonly adapters = new Map<CloudProvider, ProviderAdapter>();
  /** One refresh at a time per provider: Box's refresh tokens are single use, so two at once would lose it. */
  private readonly refreshing = new Map<CloudProvider, Promise<string>>();
  private readonly clock: () => number;

  constructor(private readonly options: CloudAccountsOptions) {
    this.settings = options.settings ?? cloudSettings();
    this.clock = options.clock ?? Date.now;
  }

  private async adapter(provider: CloudProvider): Promise<ProviderAdapter> {
    const settings = this.settings[provider];
    const problem = notConfigured(settings);
    if (problem) throw new CloudAccountError('not_configured', problem);
    let adapter = this.adapters.get(provider);
    if (!adapter) {
      adapter = await loadAdapter(settings);
      this.adapters.set(provider, adapter);
    }
    return adapter;
  }

  private records(): AccountRecord[] {
    return this.options.store.load();
  }

  private record(provider: CloudProvider): AccountRecord | null {
    return this.records().find((r) => r.provider === provider) ?? null;
  }

  private put(record: AccountRecord): void {
    this.options.store.save([...this.records().filter((r) => r.provider !== record.provider), record]);
  }

  private summary(r: AccountRecord): AccountSummary {
    return {
      provider: r.provider,
      providerName: PROVIDER_NAMES[r.provider],
      email: r.email,
      name: r.name,
      scopes: [...r.scopes],
      connectedAt: r.connectedAt,
    };
  }

  /** Every provider, whether it can be connected here, and its account when connected (Settings → Accounts). */
  providers(): ProviderStatus[] {
    const records = this.records();
    return (Object.keys(PROVIDER_NAMES) as CloudProvider[]).map((provider) => {
      const message = notConfigured(this.settings[provider]);
      const record = records.find((r) => r.provider === provider);
      return {
        provider,
        providerName: PROVIDER_NAMES[provider],
        configured: message === null,
        message,
        account: record ? this.summary(record) : null,
      };
    });
  }

  list(): AccountSummary[] {
    return this.records().map((r) => this.summary(r));
  }

  /**
   * Signs in through the system browser: a loopback redirect on 127.0.0.1, PKCE S256, the state checked;
   * resolves with the account once the provider has handed its tokens, replacing any earlier one.
   */
  async connect(provider: CloudProvider, options: { signal?: AbortSignal } = {}): Promise<AccountSummary> {
    const adapter = await this.adapter(provider);
    const name = PROVIDER_NAMES[provider];
    const state = randomBytes(24).toString('base64url');
    const loopback = await startLoopback({
      state,
      providerName: name,
      timeoutMs: this.options.timeoutMs ?? CONNECT_TIMEOUT_MS,
      port: this.options.loopbackPort,
      signal: options.signal,
    });
    try {
      const flow = await adapter.begin(loopback.redirectUri, state);
      await this.options.openBrowser(flow.url, provider);
      const code = await loopback.code;
      const tokens = await flow.finish(code);
      if (!tokens.secret)
        throw new CloudAccountError(
          'token_refused',
          `${name} gave no refresh token, so the account could not stay connected. Try again.`,
        );
      const who = await adapter.whoami(tokens.accessToken, tokens);
      const previous = this.record(provider);
      const record: AccountRecord = {
        provider,
        email: who.email,
        name: who.name,
        scopes: tokens.scopes,
        connectedAt: new Date(this.clock()).toISOString(),
        secret: this.options.cipher.encrypt(tokens.secret),
        accessToken: this.options.cipher.encrypt(tokens.accessToken),
        accessTokenExpiresAt: tokens.expiresAt,
      };
      this.put(record);
      // A different account replacing an old one: the old grant is not left behind.
      if (previous && previous.email !== record.email)
        await this.revokeRecord(adapter, previous).catch(() => false);
      return this.summary(record);
    } finally {
      await loopback.close();
    }
  }

  private async revokeRecord(adapter: ProviderAdapter, record: AccountRecord): Promise<boolean> {
    const secret = this.options.cipher.decrypt(record.secret);
    let access = record.accessToken ? this.options.cipher.decrypt(record.accessToken) : null;
    if (adapter.provider === 'dropbox' && (!access || this.expired(record))) {
      // Dropbox revokes through an access token: get one first.
      access = (await adapter.refresh(secret)).accessToken;
    }
    return adapter.revoke(secret, access);
  }

  /** Revokes the grant where the provider allows, and forgets the account in any case. */
  async disconnect(provider: CloudProvider): Promise<DisconnectResult> {
    const record = this.record(provider);
    const name = PROVIDER_NAMES[provider];
    if (!record) return { provider, revoked: false, message: `${name} was not connected.` };
    let revoked = false;
    let note = '';
    try {
      revoked = await this.revokeRecord(await this.adapter(provider), record);
      if (!revoked && provider === 'onedrive')
        note =
          ' Microsoft offers no way to revoke it from the app: remove its access in your Microsoft account if you wish.';
    } catch (error) {
      note = ` ${name} could not be asked to revoke it (${(error as Error).message}); remove the app's access in your ${name} account settings if you wish.`;
    }
    this.options.store.save(this.records().filter((r) => r.provider !== provider));
    return {
      provider,
      revoked,
      message: `${name} disconnected${revoked ? ' and its sign-in revoked' : ''}.${note}`,
    };
  }

  private expired(record: AccountRecord): boolean {
    return (
      record.accessTokenExpiresAt !== null && record.accessTokenExpiresAt - EXPIRY_MARGIN_MS <= this.clock()
    );
  }

  /** A usable access token: the cached one while it lasts, else a refreshed one (forceRefresh: always new). */
  async accessToken(provider: CloudProvider, options: { forceRefresh?: boolean } = {}): Promise<string> {
    const record = this.record(provider);
    const name = PROVIDER_NAMES[provider];
    if (!record) throw new CloudAccountError('not_connected', `${name} is not connected: connect it first.`);
    if (!options.forceRefresh && record.accessToken && !this.expired(record))
      return this.options.cipher.decrypt(record.accessToken);
    const running = this.refreshing.get(provider);
    if (running) return running;
    const refresh = (async () => {
      const tokens: TokenSet = await (
        await this.adapter(provider)
      ).refresh(this.options.cipher.decrypt(record.secret));
      const latest = this.record(provider) ?? record;
      this.put({
        ...latest,
        secret: tokens.secret ? this.options.cipher.encrypt(tokens.secret) : latest.secret,
        accessToken: this.options.cipher.encrypt(tokens.accessToken),
        accessTokenExpiresAt: tokens.expiresAt,
      });
      return tokens.accessToken;
    })();
    this.refreshing.set(provider, refresh);
    try {
      return await refresh;
    } finally {
      this.refreshing.delete(provider);
    }
  }

  /** Runs a call with the account's token; a token refused once is refreshed and the call tried again. */
  private async withToken<T>(provider: CloudProvider, call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(await this.accessToken(provider));
    } catch (error) {
      if (!(error instanceof CloudAccountError && error.code === 'token_refused')) throw error;
      return call(await this.accessToken(provider, { forceRefresh: true }));
    }
  }

  /** A folder's folders and files (null: the account's root), folders first, then by name. */
  async browse(provider: CloudProvider, folderId: string | null = null): Promise<CloudFolder> {
    const folder = await this.withToken(provider, async (t) =>
      (await this.adapter(provider)).list(t, folderId),
    );
    return { ...folder, items: sortItems(folder.items) };
  }

  async search(provider: CloudProvider, query: string): Promise<CloudItem[]> {
    if (query.trim() === '') return [];
    return sortItems(
      await this.withToken(provider, async (t) => (await this.adapter(provider)).search(t, query.trim())),
    );
  }

  /** The file a ref names (`dropbox:/Events/keynote.mov`, `drive:ID`, …); a folder is refused. */
  async resolve(ref: string): Promise<CloudItem> {
    const { provider, target } = parseRef(ref);
    const item = await this.withToken(provider, async (t) =>
      (await this.adapter(provider)).resolve(t, target),
    );
    if (item.folder)
      throw new CloudAccountError(
        'not_a_file',
        `${ref} is a folder: name the files in it (browse it to see them).`,
      );
    return item;
  }

  /** The ref of an item, for display and for `av-upload upload --from`. */
  static refOf(provider: CloudProvider, id: string): string {
    return `${REF_PREFIX[provider]}:${id}`;
  }
}

function sortItems(items: CloudItem[]): CloudItem[] {
  return [...items].sort((a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name));
}
