/**
 * Settings → Accounts: each cloud provider with Connect or Disconnect, the connected account's e-mail,
 * or why it cannot be connected here. Connecting opens the provider's sign-in page in the system browser
 * and waits for the user to finish there (Cancel stops waiting). The accounts live in the main process;
 * this card only asks it.
 */
import { Button, ConfirmDialog } from '@avp/web/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CloudProvider, DesktopApi, ProviderStatus } from './api';

type Busy = 'connecting' | 'disconnecting';

export function Accounts({ api }: { api: DesktopApi }) {
  const [providers, setProviders] = useState<ProviderStatus[] | null>(null);
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<Partial<Record<CloudProvider, Busy>>>({});
  const [errors, setErrors] = useState<Partial<Record<CloudProvider, string>>>({});
  const [status, setStatus] = useState('');
  const [confirming, setConfirming] = useState<ProviderStatus | null>(null);
  /** The provider whose button should take the focus once its row has changed (a button replaced). */
  const focusNext = useRef<CloudProvider | null>(null);
  const list = useRef<HTMLUListElement>(null);

  const load = useCallback(async () => {
    try {
      setProviders(await api.cloudProviders());
      setLoadFailure(null);
    } catch (error) {
      setLoadFailure(`The accounts could not be loaded: ${(error as Error).message}`);
    }
  }, [api]);

  useEffect(() => {
    let live = true;
    api
      .cloudProviders()
      .then((all) => live && setProviders(all))
      .catch((error: Error) => live && setLoadFailure(`The accounts could not be loaded: ${error.message}`));
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => {
    const provider = focusNext.current;
    if (!provider) return;
    focusNext.current = null;
    list.current
      ?.querySelector<HTMLElement>(`[data-provider="${provider}"] .app-account-row__action`)
      ?.focus();
  });

  const setBusyFor = (provider: CloudProvider, value: Busy | null) =>
    setBusy((current) => {
      const next = { ...current };
      if (value) next[provider] = value;
      else delete next[provider];
      return next;
    });
  const setErrorFor = (provider: CloudProvider, message: string | null) =>
    setErrors((current) => {
      const next = { ...current };
      if (message) next[provider] = message;
      else delete next[provider];
      return next;
    });

  async function connect(row: ProviderStatus) {
    const { provider, providerName } = row;
    setErrorFor(provider, null);
    setStatus(`Opening ${providerName}’s sign-in page in your browser…`);
    focusNext.current = provider;
    setBusyFor(provider, 'connecting');
    try {
      const result = await api.connectCloud(provider);
      if (result.ok) {
        setStatus(
          `${providerName} connected as ${result.value.email ?? result.value.name ?? 'your account'}.`,
        );
      } else if (result.code === 'cancelled') {
        setStatus(`Connecting ${providerName} was cancelled.`);
      } else {
        setStatus('');
        setErrorFor(provider, result.message);
      }
    } catch (error) {
      setStatus('');
      setErrorFor(provider, `${providerName} could not be connected: ${(error as Error).message}`);
    } finally {
      focusNext.current = provider;
      setBusyFor(provider, null);
      await load();
    }
  }

  async function disconnect(row: ProviderStatus) {
    const { provider, providerName } = row;
    setConfirming(null);
    setErrorFor(provider, null);
    setBusyFor(provider, 'disconnecting');
    try {
      const result = await api.disconnectCloud(provider);
      if (result.ok) setStatus(result.value.message);
      else setErrorFor(provider, result.message);
    } catch (error) {
      setErrorFor(provider, `${providerName} could not be disconnected: ${(error as Error).message}`);
    } finally {
      focusNext.current = provider;
      setBusyFor(provider, null);
      await load();
    }
  }

  return (
    <section className="app-card app-accounts" aria-labelledby="app-accounts-title">
      <h3 id="app-accounts-title">Accounts</h3>
      <p className="app-help">
        Connect a cloud account to add its files to an upload. Our server copies them straight from the
        provider: they do not pass through this computer. Sign-ins are kept in your system’s keychain.
      </p>
      {loadFailure ? (
        <div className="app-alert">
          <p className="kit-error" role="alert">
            {loadFailure}
          </p>
          <Button variant="secondary" dense onPress={() => void load()}>
            Try again
          </Button>
        </div>
      ) : null}
      {!providers && !loadFailure ? (
        <p className="app-loading" role="status">
          Loading the accounts…
        </p>
      ) : null}
      {providers ? (
        <ul className="app-account-rows" ref={list}>
          {providers.map((row) => (
            <AccountRow
              key={row.provider}
              api={api}
              row={row}
              busy={busy[row.provider] ?? null}
              error={errors[row.provider] ?? null}
              onConnect={() => void connect(row)}
              onDisconnect={() => setConfirming(row)}
            />
          ))}
        </ul>
      ) : null}
      <p className="app-status" role="status">
        {status}
      </p>
      <ConfirmDialog
        isOpen={confirming !== null}
        title={`Disconnect ${confirming?.providerName ?? ''}?`}
        text={`The app asks ${confirming?.providerName ?? 'the provider'} to revoke its access where it allows, and forgets the account. Files of this account still in the queue stop until you connect it again.`}
        confirmLabel="Disconnect"
        destructive
        onConfirm={() => confirming && void disconnect(confirming)}
        onCancel={() => {
          if (confirming) focusNext.current = confirming.provider;
          setConfirming(null);
        }}
      />
    </section>
  );
}

function AccountRow({
  api,
  row,
  busy,
  error,
  onConnect,
  onDisconnect,
}: {
  api: DesktopApi;
  row: ProviderStatus;
  busy: Busy | null;
  error: string | null;
  onConnect: () => void;
  onDisconnect: () => void;
}) {
  const { provider, providerName, configured, message, account } = row;
  const titleId = `app-account-${provider}`;
  let detail: string;
  if (busy === 'connecting') detail = 'Finish signing in in your browser…';
  else if (busy === 'disconnecting') detail = 'Disconnecting…';
  else if (account)
    detail = `Connected as ${account.email ?? account.name ?? 'an account without an e-mail'}`;
  // The message names the variable to set ('Box is not configured: set AV_BOX_CLIENT_ID …').
  else if (!configured) detail = message ?? `${providerName} is not configured here.`;
  else detail = 'Not connected';

  return (
    <li className="app-account-row" data-provider={provider} aria-labelledby={titleId}>
      <div className="app-account-row__text">
        <strong id={titleId}>{providerName}</strong>
        <p className={busy === 'connecting' ? 'app-account-row__waiting' : undefined}>{detail}</p>
      </div>
      <div className="app-account-row__actions">
        {busy === 'connecting' ? (
          <Button
            variant="secondary"
            dense
            className="app-account-row__action"
            aria-label={`Cancel connecting ${providerName}`}
            onPress={() => void api.cancelConnect(provider)}
          >
            Cancel
          </Button>
        ) : account ? (
          <Button
            variant="secondary"
            dense
            className="app-account-row__action"
            isDisabled={busy !== null}
            aria-label={`Disconnect ${providerName}`}
            onPress={onDisconnect}
          >
            Disconnect
          </Button>
        ) : configured ? (
          <Button
            dense
            className="app-account-row__action"
            isDisabled={busy !== null}
            aria-label={`Connect ${providerName}`}
            onPress={onConnect}
          >
            Connect
          </Button>
        ) : null}
      </div>
      {error ? (
        <p className="kit-error app-account-row__error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
