import type { CloudPickerConfig } from '@avp/shared';
import {
  BrowserAuthError,
  createStandardPublicClientApplication,
  InteractionRequiredAuthError,
  type IPublicClientApplication,
} from '@azure/msal-browser';
import { PickerError, type CloudPicker, type PickedCloudFile } from './types';

/**
 * OneDrive File Picker v8 (Microsoft's 'File Picker v8' protocol). MSAL signs the user in (a popup back
 * to /client/cloud-callback), the picker page opens in a popup with a POSTed token, and the two windows
 * talk over a MessageChannel: the picker asks for tokens ('authenticate'), and hands back the picked
 * items ('pick') or closes ('close'). Our server then reads each item through Microsoft Graph with a
 * Files.Read.All token.
 */

const GRAPH_SCOPES = ['Files.Read.All'];
/** The consumer picker's own scope; business pickers ask for their SharePoint resource instead. */
const CONSUMER_SCOPES = ['OneDrive.ReadOnly'];

interface PickedItem {
  id: string;
  name?: string;
  size?: number;
  parentReference?: { driveId?: string };
}
interface PickerCommand {
  command: 'authenticate' | 'close' | 'pick' | string;
  resource?: string;
  items?: PickedItem[];
}

const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com/common';

/**
 * Microsoft's own sign-in hosts (public and national clouds), which MSAL knows and validates itself.
 * Any other configured authority (ONEDRIVE_AUTHORITY: a stand-in in tests, a proxy in staging) is
 * declared as a known authority: otherwise MSAL asks login.microsoftonline.com's instance discovery
 * about the host, which does not know it, and every sign-in fails before it starts.
 */
const MICROSOFT_AUTHORITY_HOSTS = [
  'login.microsoftonline.com',
  'login.microsoft.com',
  'login.windows.net',
  'sts.windows.net',
  'login.microsoftonline.us',
  'login.usgovcloudapi.net',
  'login-us.microsoftonline.com',
  'login.chinacloudapi.cn',
  'login.partner.microsoftonline.cn',
  'login.microsoftonline.de',
];

export function msalAuthority(authority: string | undefined): {
  authority: string;
  knownAuthorities: string[];
} {
  const url = new URL(authority ?? DEFAULT_AUTHORITY);
  const microsoft = MICROSOFT_AUTHORITY_HOSTS.includes(url.hostname.toLowerCase());
  return { authority: url.href.replace(/\/+$/, ''), knownAuthorities: microsoft ? [] : [url.host] };
}

let app: { key: string; client: Promise<IPublicClientApplication> } | null = null;

function msal(config: CloudPickerConfig): Promise<IPublicClientApplication> {
  const { authority, knownAuthorities } = msalAuthority(config.authority);
  const key = `${config.clientId} ${authority}`;
  if (app?.key !== key) {
    app = {
      key,
      client: createStandardPublicClientApplication({
        auth: {
          clientId: config.clientId,
          authority,
          knownAuthorities,
          redirectUri: `${window.location.origin}/client/cloud-callback`,
        },
        cache: { cacheLocation: 'sessionStorage' },
      }),
    };
    // A failed start (e.g. a bad authority) is not kept for the next click.
    app.client.catch(() => {
      if (app?.key === key) app = null;
    });
  }
  return app.client;
}

/** A token for these scopes: silently when MSAL can, else through the sign-in popup; null on cancel. */
async function token(client: IPublicClientApplication, scopes: string[]): Promise<string | null> {
  const account = client.getActiveAccount() ?? client.getAllAccounts()[0];
  try {
    if (account) return (await client.acquireTokenSilent({ scopes, account })).accessToken;
  } catch (error) {
    if (!(error instanceof InteractionRequiredAuthError)) throw error;
  }
  try {
    const result = await client.acquireTokenPopup({ scopes, prompt: 'select_account' });
    client.setActiveAccount(result.account);
    return result.accessToken;
  } catch (error) {
    if (error instanceof BrowserAuthError && error.errorCode === 'user_cancelled') return null;
    throw error;
  }
}

/**
 * The scopes of the token the picker asks for: a business (SharePoint) picker names the resource it
 * calls and wants that resource's token; the consumer picker (onedrive.live.com) takes OneDrive.ReadOnly
 * whatever resource it names (Microsoft's consumer sample answers every 'authenticate' so), and
 * `<resource>/.default` is not a scope a personal account can consent to.
 */
function pickerScopes(business: boolean, resource: string | undefined): string[] {
  return business && resource ? [`${resource.replace(/\/+$/, '')}/.default`] : CONSUMER_SCOPES;
}

export function preloadOneDrive(): Promise<void> {
  return Promise.resolve();
}

export const pickFromOneDrive: CloudPicker = async (config) => {
  const pickerUrl = config.scripts[0];
  if (!pickerUrl) throw new PickerError('No OneDrive picker address');
  // Opened now, within the click, and given its address once the token is there.
  const win = window.open('', 'onedrive-picker', 'popup,width=1080,height=680');
  if (!win) throw new PickerError('The picker window was blocked');
  try {
    const client = await msal(config);
    const business = /sharepoint\.com/i.test(pickerUrl);
    const first = await token(client, pickerScopes(business, new URL(pickerUrl).origin));
    if (first === null) {
      win.close();
      return null;
    }
    const channelId = crypto.randomUUID();
    const options = {
      sdk: '8.0',
      entry: { oneDrive: { files: {} } },
      authentication: {},
      messaging: { origin: window.location.origin, channelId },
      selection: { mode: 'multiple' },
      typesAndSources: { mode: 'files', pivots: { oneDrive: true, recent: true } },
    };
    const url = new URL(pickerUrl);
    url.searchParams.set('filePicker', JSON.stringify(options));
    url.searchParams.set('locale', 'en-us');
    const form = win.document.createElement('form');
    form.method = 'POST';
    form.action = url.href;
    const input = win.document.createElement('input');
    input.type = 'hidden';
    input.name = 'access_token';
    input.value = first;
    form.append(input);
    win.document.body.append(form);
    form.submit();
    const items = await conversation(win, channelId, client, business);
    if (!items) return null;
    const graphToken = await token(client, GRAPH_SCOPES);
    if (graphToken === null) return null;
    return items.flatMap((item): PickedCloudFile[] => {
      const driveId = item.parentReference?.driveId;
      if (!driveId) return [];
      return [
        {
          provider: 'onedrive',
          fileId: `${driveId}!${item.id}`,
          name: item.name ?? item.id,
          ...(item.size !== undefined ? { size: item.size } : {}),
          accessToken: graphToken,
        },
      ];
    });
  } catch (error) {
    if (!win.closed) win.close();
    throw error instanceof PickerError ? error : new PickerError(String(error));
  }
};

/** The picker's side of the v8 protocol, until it picks (the items) or closes (null). */
function conversation(
  win: Window,
  channelId: string,
  client: IPublicClientApplication,
  business: boolean,
): Promise<PickedItem[] | null> {
  return new Promise((resolve, reject) => {
    let port: MessagePort | null = null;
    const stop = () => {
      window.removeEventListener('message', onWindowMessage);
      clearInterval(watch);
      port?.close();
    };
    const watch = setInterval(() => {
      if (win.closed) {
        stop();
        resolve(null);
      }
    }, 500);
    const onWindowMessage = (event: MessageEvent<{ type?: string; channelId?: string }>) => {
      if (event.source !== win || event.data?.type !== 'initialize' || event.data.channelId !== channelId)
        return;
      port = event.ports[0] ?? null;
      if (!port) return;
      port.addEventListener(
        'message',
        (message: MessageEvent<{ type: string; id: string; data: PickerCommand }>) => {
          void onCommand(message.data).catch((error: unknown) => {
            stop();
            reject(error instanceof Error ? error : new PickerError(String(error)));
          });
        },
      );
      port.start();
      port.postMessage({ type: 'activate' });
    };
    const onCommand = async (message: { type: string; id: string; data: PickerCommand }) => {
      if (message.type !== 'command' || !port) return;
      port.postMessage({ type: 'acknowledge', id: message.id });
      const command = message.data;
      switch (command.command) {
        case 'authenticate': {
          const fresh = await token(client, pickerScopes(business, command.resource));
          port.postMessage({
            type: 'result',
            id: message.id,
            data: fresh
              ? { result: 'token', token: fresh }
              : { result: 'error', error: { code: 'unableToObtainToken' } },
          });
          break;
        }
        case 'pick':
          port.postMessage({ type: 'result', id: message.id, data: { result: 'success' } });
          stop();
          win.close();
          resolve(command.items ?? []);
          break;
        case 'close':
          stop();
          win.close();
          resolve(null);
          break;
        default:
          port.postMessage({
            type: 'result',
            id: message.id,
            data: {
              result: 'error',
              error: { code: 'unsupportedCommand', message: command.command },
              isExpected: true,
            },
          });
      }
    };
    window.addEventListener('message', onWindowMessage);
  });
}
