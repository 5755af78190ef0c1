/** The connected cloud accounts, kept in AV_UPLOAD_HOME; sign-in pages open in the system browser. */
import {
  CloudAccountError,
  CloudAccounts,
  cloudSettings,
  fileKeyCipher,
  JsonFileAccountStore,
  PROVIDER_NAMES,
} from '../engine/cloud/index.js';
import { openInBrowser } from './browser.js';
import { accountsFile, accountsKeyFile } from './config.js';
import { CliError, EXIT } from './errors.js';
import type { Io } from './io.js';

export function openCloud(home: string, o: Io): CloudAccounts {
  const port = Number(process.env.AV_OAUTH_PORT);
  return new CloudAccounts({
    store: new JsonFileAccountStore(accountsFile(home)),
    cipher: fileKeyCipher(accountsKeyFile(home)),
    settings: cloudSettings(process.env),
    loopbackPort: Number.isInteger(port) && port > 0 ? port : undefined,
    openBrowser: (url, provider) => {
      if (o.json) o.event({ event: 'authorize', provider, url });
      else
        o.err(
          `Opening ${PROVIDER_NAMES[provider]}'s sign-in in your browser. If it does not open, visit:\n  ${url}`,
        );
      openInBrowser(url);
    },
  });
}

/** A cloud-account failure as the CLI's exit: not connected or refused 3, bad refs 2, the provider down 6. */
export function cloudFailure(error: unknown): never {
  if (!(error instanceof CloudAccountError)) throw error;
  const code =
    error.code === 'bad_ref' ||
    error.code === 'not_found' ||
    error.code === 'not_a_file' ||
    error.code === 'not_configured'
      ? EXIT.usage
      : error.code === 'provider_error'
        ? EXIT.network
        : error.code === 'cancelled'
          ? EXIT.interrupted
          : EXIT.auth;
  throw new CliError(code, error.message);
}
