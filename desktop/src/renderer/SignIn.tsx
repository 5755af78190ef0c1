/**
 * Sign in with the client account (SPEC §5 'Login', §8): the messages come from the shared login schema
 * here and from the main process's answer; after wrong credentials the password is cleared.
 */
import { fieldErrors, LOGIN_FAILED, loginFormSchema } from '@avp/shared';
import { Button, EmailField, PasswordField, TextField } from '@avp/web/ui';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { DesktopApi, SignedIn } from './api';

/** The last server signed in to, offered next time (not a secret; the token stays with the main process). */
const SERVER_KEY = 'avUpload.server';

function lastServer(): string {
  try {
    return localStorage.getItem(SERVER_KEY) ?? '';
  } catch {
    return '';
  }
}

export interface SignInProps {
  api: DesktopApi;
  notice: string | null;
  onSignedIn: (session: SignedIn) => void;
}

export function SignIn({ api, notice, onSignedIn }: SignInProps) {
  const [server, setServer] = useState(lastServer);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const headingId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = loginFormSchema.safeParse({ email, password });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await api.login(server.trim(), parsed.data.email, parsed.data.password);
      if (result.ok) {
        try {
          localStorage.setItem(SERVER_KEY, result.value.server);
        } catch {
          // storage unavailable: the field just starts empty next time
        }
        onSignedIn(result.value);
        return;
      }
      if (result.fields && Object.keys(result.fields).length > 0) setErrors(result.fields);
      else setFailure(result.message);
      if (result.message === LOGIN_FAILED) {
        setPassword('');
        passwordRef.current?.focus();
      }
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="app-card app-signin"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(e) => void submit(e)}
    >
      <h2 id={headingId}>Sign in</h2>
      {notice ? (
        <p className="app-notice" role="status">
          {notice}
        </p>
      ) : null}
      <TextField
        label="Server"
        type="url"
        value={server}
        onChange={setServer}
        placeholder="https://uploads.example.com"
        description="The address of the upload portal. Leave empty for the default server."
        autoComplete="url"
      />
      <EmailField
        label="Email"
        value={email}
        onChange={setEmail}
        errorMessage={errors.email}
        inputRef={emailRef}
        autoComplete="username"
        isRequired
      />
      <PasswordField
        label="Password"
        value={password}
        onChange={setPassword}
        errorMessage={errors.password}
        inputRef={passwordRef}
        autoComplete="current-password"
        isRequired
      />
      {failure ? (
        <p className="kit-error app-alert" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="app-actions">
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </div>
    </form>
  );
}
