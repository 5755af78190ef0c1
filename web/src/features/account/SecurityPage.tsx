/**
 * /account/security (#33): the account's passkeys (add one by name, see when each was last used, remove)
 * and two-step sign-in with an authenticator app (the secret as text and as an otpauth link, a code to turn
 * it on, ten recovery codes shown once with copy and download, turning it off). Staff whom the owner's rule
 * "Staff must use a passkey or a second factor" sent here are told so, and sent on once one is set up.
 * Changes that need a recent sign-in go through "Confirm it's you".
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, Checkbox, TextField } from '../../ui';
import { apiRequest, errorMessage } from '../../lib/api';
import { useConfirmItsYou } from '../../lib/confirm-its-you';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import {
  addPasskey,
  confirmTotp,
  disableTotp,
  loadFactors,
  passkeyFailure,
  passkeysSupported,
  removePasskey,
  renewRecoveryCodes,
  startTotp,
  type FactorState,
} from './factors-api';
import LoginForm from './LoginForm';
import './account.css';

export const SECURITY_TITLE = 'Sign-in and security';
export const SETUP_REQUIRED_TEXT =
  'Your company requires staff to use a passkey or two-step sign-in. Set one up to continue.';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export default function SecurityPage() {
  useDocumentTitle(SECURITY_TITLE);
  const { status, user } = useSession();
  const { dialog, withFreshSignIn } = useConfirmItsYou();
  // Sent here by the sign-in form under the owner's rule: the notice stays after a factor is set up, to
  // lead back to the staff pages.
  const location = useLocation();
  const mustSetUp = (location.state as { factorSetup?: boolean } | null)?.factorSetup === true;
  const query = useQuery({
    queryKey: ['account', 'second-factor'],
    queryFn: loadFactors,
    enabled: status === 'signedIn',
    retry: false,
  });
  const state = query.data ?? null;
  const loadError = query.error ? errorMessage(query.error) : null;
  const reload = useCallback(async () => {
    await query.refetch();
  }, [query]);

  const hasFactor = state !== null && (state.passkeys.length > 0 || state.totp);

  return (
    <section className="account-page" aria-labelledby="security-title">
      <h1 id="security-title">{SECURITY_TITLE}</h1>
      {status === 'loading' ? <p role="status">Loading…</p> : null}
      {status === 'signedOut' ? <LoginForm /> : null}
      {status === 'signedIn' && user ? (
        <>
          {mustSetUp ? (
            <div className={hasFactor ? 'account-success' : 'account-alert'} role="status">
              {hasFactor ? (
                <p>
                  Done: you can use the staff pages now.{' '}
                  <Link to="/manage_order_forms">Continue to the staff pages</Link>
                </p>
              ) : (
                <p>{SETUP_REQUIRED_TEXT}</p>
              )}
            </div>
          ) : null}
          {loadError ? (
            <div className="account-alert" role="alert">
              <p>{loadError}</p>
              <Button variant="secondary" onPress={() => void reload()}>
                Try again
              </Button>
            </div>
          ) : null}
          {state === null && loadError === null ? <p role="status">Loading…</p> : null}
          {state !== null ? (
            <>
              <PasskeysSection state={state} reload={reload} withFreshSignIn={withFreshSignIn} />
              <TwoStepSection state={state} reload={reload} withFreshSignIn={withFreshSignIn} />
              {/* An owner still without a factor under the rule sets one up first (the API refuses until then). */}
              {user.staffRoles?.includes('owner') && !(state.staffFactorRequired && !hasFactor) ? (
                <OwnerSetting />
              ) : null}
            </>
          ) : null}
        </>
      ) : null}
      {dialog}
    </section>
  );
}

interface SectionProps {
  state: FactorState;
  reload: () => Promise<void>;
  withFreshSignIn: <T>(action: () => Promise<T>) => Promise<T>;
}

function PasskeysSection({ state, reload, withFreshSignIn }: SectionProps) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const supported = passkeysSupported();

  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setDone(null);
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Please give the passkey a name.');
      return;
    }
    setNameError(undefined);
    setBusy(true);
    try {
      await withFreshSignIn(() => addPasskey(trimmed));
      setName('');
      setDone(`Added the passkey "${trimmed}".`);
      await reload();
    } catch (error) {
      setFailure(passkeyFailure(error));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (id: number, label: string) => {
    setFailure(null);
    setDone(null);
    try {
      await withFreshSignIn(() => removePasskey(id));
      setDone(`Removed the passkey "${label}".`);
      await reload();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <section className="account-section" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>Sign in with your fingerprint, face or screen lock instead of typing a password.</p>
      {state.passkeys.length === 0 ? (
        <p>No passkeys yet.</p>
      ) : (
        <ul className="account-list" aria-label="Your passkeys">
          {state.passkeys.map((passkey) => (
            <li key={passkey.id} className="account-list__row">
              <div className="account-list__text">
                <strong>{passkey.name}</strong>
                <span>
                  Added {when(passkey.createdAt)} ·{' '}
                  {passkey.lastUsedAt ? `Last used ${when(passkey.lastUsedAt)}` : 'Never used'}
                </span>
              </div>
              <Button
                variant="secondary"
                aria-label={`Remove ${passkey.name}`}
                onPress={() => void remove(passkey.id, passkey.name)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <form className="account-form account-form--narrow" noValidate onSubmit={(e) => void add(e)}>
          <TextField
            label="Passkey name"
            description="For example the device it is on: Work laptop, Phone."
            value={name}
            onChange={setName}
            errorMessage={nameError}
            maxLength={100}
          />
          <div className="account-actions">
            <Button type="submit" isDisabled={busy}>
              {busy ? 'Waiting for the passkey…' : 'Add a passkey'}
            </Button>
          </div>
        </form>
      ) : (
        <p>This browser cannot create passkeys. Try an up-to-date browser.</p>
      )}
      <div aria-live="polite">{done ? <p className="account-success">{done}</p> : null}</div>
      {failure ? (
        <p className="account-alert" role="alert">
          {failure}
        </p>
      ) : null}
    </section>
  );
}

function TwoStepSection({ state, reload, withFreshSignIn }: SectionProps) {
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setFailure(null);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const begin = () => run(async () => setSetup(await withFreshSignIn(startTotp)));

  const confirm = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError('Enter the 6-digit code your app shows.');
      return;
    }
    setCodeError(undefined);
    setFailure(null);
    setBusy(true);
    try {
      const answer = await confirmTotp(code.trim());
      setSetup(null);
      setCode('');
      setCodes(answer.recoveryCodes);
      await reload();
    } catch (error) {
      setCodeError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (codes !== null) {
    return (
      <section className="account-section" aria-labelledby="two-step-title">
        <h2 id="two-step-title">Two-step sign-in</h2>
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      </section>
    );
  }

  return (
    <section className="account-section" aria-labelledby="two-step-title">
      <h2 id="two-step-title">Two-step sign-in</h2>
      {state.totp ? (
        <>
          <p className="account-success">
            Two-step sign-in is on. {state.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          <div className="account-actions account-actions--wrap">
            <Button
              variant="secondary"
              isDisabled={busy}
              onPress={() =>
                void run(async () => setCodes((await withFreshSignIn(renewRecoveryCodes)).recoveryCodes))
              }
            >
              New recovery codes
            </Button>
            <Button
              variant="secondary"
              isDisabled={busy}
              onPress={() =>
                void run(async () => {
                  await withFreshSignIn(disableTotp);
                  await reload();
                })
              }
            >
              Turn off two-step sign-in
            </Button>
          </div>
        </>
      ) : setup === null ? (
        <>
          <p>After your password, enter a code from an authenticator app on your phone.</p>
          <div className="account-actions">
            <Button isDisabled={busy} onPress={() => void begin()}>
              Set up two-step sign-in
            </Button>
          </div>
        </>
      ) : (
        <form className="account-form account-form--narrow" noValidate onSubmit={(e) => void confirm(e)}>
          <ol className="account-steps">
            <li>
              In your authenticator app, add an account with this key (or{' '}
              <a href={setup.uri}>open it in the app</a>):
              <code className="account-secret" aria-label="Setup key">
                {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
              </code>
            </li>
            <li>Enter the 6-digit code the app shows.</li>
          </ol>
          <TextField
            label="6-digit code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            value={code}
            onChange={setCode}
            errorMessage={codeError}
            isRequired
          />
          <div className="account-actions">
            <Button variant="secondary" onPress={() => setSetup(null)}>
              Cancel
            </Button>
            <Button type="submit" isDisabled={busy}>
              {busy ? 'Checking…' : 'Turn on'}
            </Button>
          </div>
        </form>
      )}
      {failure ? (
        <p className="account-alert" role="alert">
          {failure}
        </p>
      ) : null}
    </section>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const text = codes.join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied.');
    } catch {
      setCopied('Could not copy: select the codes and copy them yourself.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="account-form">
      <p className="account-success" role="status">
        Two-step sign-in is on. Save these recovery codes somewhere safe: each signs you in once if you lose
        your phone. They are shown only now.
      </p>
      <ul className="account-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="account-actions account-actions--wrap">
        <Button variant="secondary" onPress={() => void copy()}>
          Copy
        </Button>
        <Button variant="secondary" onPress={download}>
          Download
        </Button>
        <Button onPress={onDone}>I have saved them</Button>
      </div>
      <p aria-live="polite">{copied}</p>
    </div>
  );
}

/** The owner setting "Staff must use a passkey or a second factor" (owners only; the API checks too). */
function OwnerSetting() {
  const setting = useQuery({
    queryKey: ['staff-settings', 'second-factor'],
    queryFn: () => apiRequest<{ required: boolean }>('GET', '/api/staff-settings/second-factor'),
    retry: false,
  });
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);
  const change = async (required: boolean) => {
    setSaving(true);
    setNotice(null);
    try {
      await apiRequest('PUT', '/api/staff-settings/second-factor', { required });
      await setting.refetch();
      setNotice({
        error: false,
        text: required
          ? 'Staff without a passkey or two-step sign-in will be asked to set one up at their next sign-in.'
          : 'Staff may sign in with a password alone.',
      });
    } catch (error) {
      setNotice({ error: true, text: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="account-section" aria-labelledby="owner-setting-title">
      <h2 id="owner-setting-title">Staff sign-in</h2>
      {setting.isPending ? <p role="status">Loading…</p> : null}
      {setting.error ? (
        <p className="account-alert" role="alert">
          {errorMessage(setting.error)}
        </p>
      ) : null}
      {setting.data ? (
        <Checkbox
          label="Staff must use a passkey or a second factor"
          value={setting.data.required}
          onChange={(required) => void change(required)}
          isDisabled={saving}
        />
      ) : null}
      <div aria-live="polite">
        {notice ? <p className={notice.error ? 'account-alert' : 'account-success'}>{notice.text}</p> : null}
      </div>
    </section>
  );
}
