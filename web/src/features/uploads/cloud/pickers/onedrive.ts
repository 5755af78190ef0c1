import type { CloudPickerConfig } from '@avp/shared';
import {
  BrowserAuthError,
  createStandardPublicClientApplication,
  InteractionRequiredAuthError,
  type IPublicClientApplication,
} from '@azure/msal-browser';
import { openPickerDialog } from './dialog';
import { PickerError, type CloudPicker, type PickedCloudFile } from './types';

/**
 * OneDrive File Picker v8 (Microsoft's 'File Picker v8' protocol). One click opens at most one window:
 * MSAL's sign-in popup (back to /client/cloud-callback), opened at once within the click, and only when
 * MSAL has no account to get a token for silently. The picker page then loads in a frame inside a modal
 * dialog in this page (./dialog.ts): a form here POSTs the token to it with the frame as its target, and
 * the picker talks to its parent over a MessageChannel: it asks for tokens ('authenticate'), and hands
 * back the picked items ('pick') or closes ('close'). Our server then reads each item through Microsoft
 * Graph with a Files.Read.All token.
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
/** The started client, once `app.client` has resolved: a click uses it without waiting. */
let ready: { key: string; client: IPublicClientApplication } | null = null;

function appKey(config: CloudPickerConfig): string {
  return `${config.clientId} ${msalAuthority(config.authority).authority}`;
}

function msal(config: CloudPickerConfig): Promise<IPublicClientApplication> {
  const { authority, knownAuthorities } = msalAuthority(config.authority);
  const key = appKey(config);
  if (app?.key !== key) {
    const client = createStandardPublicClientApplication({
      auth: {
        clientId: config.clientId,
        authority,
        knownAuthorities,
        redirectUri: `${window.location.origin}/client/cloud-callback`,
      },
      cache: { cacheLocation: 'sessionStorage' },
    });
    app = { key, client };
    client.then(
      (started) => {
        if (app?.key === key) ready = { key, client: started };
      },
      // A failed start (e.g. a bad authority) is not kept for the next click.
      () => {
        if (app?.key === key) app = null;
      },
    );
  }
  return app.client;
}

/**
 * A token for these scopes: silently when MSAL has an account, else through the sign-in popup; null when
 * the user closed it. With no account the popup opens synchronously (MSAL's default `navigatePopups`
 * opens it before any wait), so within the click that asked for it; a popup opened after a wait would
 * be blocked.
 */
async function token(client: IPublicClientApplication, scopes: string[]): Promise<string | null> {
  const account = client.getActiveAccount() ?? client.getAllAccounts()[0];
  if (account) {
    try {
      return (await client.acquireTokenSilent({ scopes, account })).accessToken;
    } catch (error) {
      if (!(error instanceof InteractionRequiredAuthError)) throw error;
    }
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

/** Starts MSAL when the button shows, so a click can open the sign-in popup without waiting for it. */
export function preloadOneDrive(config: CloudPickerConfig): Promise<void> {
  return msal(config).then(() => undefined);
}

export const pickFromOneDrive: CloudPicker = async (config) => {
  const pickerUrl = config.scripts[0];
  if (!pickerUrl) throw new PickerError('No OneDrive picker address');
  try {
    const key = appKey(config);
    const client = ready?.key === key ? ready.client : await msal(config);
    const business = /sharepoint\.com/i.test(pickerUrl);
    const first = await token(client, pickerScopes(business, new URL(pickerUrl).origin));
    if (first === null) return null;
    const items = await showPicker(pickerUrl, first, client, business);
    if (!items) return null;
    const graphToken = await token(client, GRAPH_SCOPES);
    if (graphToken === null) return null;
    return items.flatMap((item): PickedCloudFile[] => {
      const driveId = item.parentReference?.driveId;
      if (!driveId) return [];
      return [
        {
          provider: 'onedrive',
          fileId: item.id,
          driveId,
          name: item.name ?? item.id,
          ...(item.size !== undefined ? { size: item.size } : {}),
          accessToken: graphToken,
        },
      ];
    });
  } catch (error) {
    throw error instanceof PickerError ? error : new PickerError(String(error));
  }
};

/**
 * The v8 picker in a frame inside a modal dialog, until it picks (the items) or closes, or the user
 * cancels the dialog (null). The page is loaded by POSTing the access token to it from a form in this
 * page whose target is the frame (the v8 protocol's iframe hosting); the picker then messages
 * `window.parent`, i.e. this page, from the frame's window.
 */
function showPicker(
  pickerUrl: string,
  first: string,
  client: IPublicClientApplication,
  business: boolean,
): Promise<PickedItem[] | null> {
  return new Promise((resolve, reject) => {
    const channelId = crypto.randomUUID();
    let stop: (() => void) | null = null;
    const shown = openPickerDialog('OneDrive', () => {
      stop?.();
      resolve(null);
    });
    const frame = document.createElement('iframe');
    frame.className = 'uploads-cloud-dialog-frame';
    frame.name = `onedrive-picker-${channelId}`;
    frame.title = 'OneDrive file picker';
    shown.body.append(frame);
    const end = (outcome: () => void) => {
      stop?.();
      shown.close();
      outcome();
    };
    stop = conversation(frame, channelId, client, business, {
      picked: (items) => end(() => resolve(items)),
      closed: () => end(() => resolve(null)),
      failed: (error) => end(() => reject(error)),
    });

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
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = url.href;
    form.target = frame.name;
    form.hidden = true;
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = 'access_token';
    input.value = first;
    form.append(input);
    // Inside the dialog, so it goes with it.
    shown.dialog.append(form);
    form.submit();
  });
}

interface ConversationEnds {
  picked(items: PickedItem[]): void;
  closed(): void;
  failed(error: Error): void;
}

/** The host's side of the v8 protocol with the picker in `frame`; returns its stop. */
function conversation(
  frame: HTMLIFrameElement,
  channelId: string,
  client: IPublicClientApplication,
  business: boolean,
  ends: ConversationEnds,
): () => void {
  let port: MessagePort | null = null;
  let stopped = false;
  const stop = () => {
    stopped = true;
    window.removeEventListener('message', onWindowMessage);
    port?.close();
  };
  const onWindowMessage = (event: MessageEvent<{ type?: string; channelId?: string }>) => {
    if (
      !frame.contentWindow ||
      event.source !== frame.contentWindow ||
      event.data?.type !== 'initialize' ||
      event.data.channelId !== channelId
    )
      return;
    port?.close();
    port = event.ports[0] ?? null;
    if (!port) return;
    port.addEventListener(
      'message',
      (message: MessageEvent<{ type: string; id: string; data: PickerCommand }>) => {
        void onCommand(message.data).catch((error: unknown) => {
          if (!stopped) ends.failed(error instanceof Error ? error : new PickerError(String(error)));
        });
      },
    );
    port.start();
    port.postMessage({ type: 'activate' });
  };
  const onCommand = async (message: { type: string; id: string; data: PickerCommand }) => {
    const current = port;
    if (message.type !== 'command' || !current || stopped) return;
    current.postMessage({ type: 'acknowledge', id: message.id });
    const command = message.data;
    switch (command.command) {
      case 'authenticate': {
        const fresh = await token(client, pickerScopes(business, command.resource));
        if (stopped) return;
        current.postMessage({
          type: 'result',
          id: message.id,
          data: fresh
            ? { result: 'token', token: fresh }
            : { result: 'error', error: { code: 'unableToObtainToken' } },
        });
        break;
      }
      case 'pick':
        current.postMessage({ type: 'result', id: message.id, data: { result: 'success' } });
        ends.picked(command.items ?? []);
        break;
      case 'close':
        ends.closed();
        break;
      default:
        current.postMessage({
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
  return stop;
}
