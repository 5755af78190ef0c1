/** `login --email EMAIL [--password-stdin] [--server URL]`: a bearer token for this machine. */
import { AuthClient, AuthError } from '../../engine/auth.js';
import { readCredentials, writeCredentials } from '../config.js';
import { CliError, EXIT, networkOrThrow } from '../errors.js';
import { readPassword } from '../password.js';
import { defaultServer } from '../session.js';
import type { Command } from './command.js';

export const login: Command = async ({ values, home, o }) => {
  const server = String(values.server ?? readCredentials(home)?.server ?? defaultServer()).replace(
    /\/+$/,
    '',
  );
  const email = String(values.email ?? '');
  const password = await readPassword(values as { password?: string; 'password-stdin'?: boolean });
  const auth = new AuthClient(server);
  try {
    const session = await auth.login(email, password);
    // One sign-in per machine: the one it replaces ends on its server too.
    const previous = readCredentials(home);
    if (previous) await new AuthClient(previous.server).logout(previous.token).catch(() => undefined);
    writeCredentials(home, {
      server,
      email: session.user.email,
      token: session.token,
      expiresAt: session.expiresAt,
    });
    if (o.json) o.event({ event: 'login', server, email: session.user.email, expiresAt: session.expiresAt });
    else o.out(`Signed in to ${server} as ${session.user.email} (until ${session.expiresAt}).`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof AuthError) {
      // 400: the fields; 401/403: the credentials; anything else is the server's own failure, named.
      if (error.status === 400) throw new CliError(EXIT.usage, error.message);
      if (error.status === 401 || error.status === 403) throw new CliError(EXIT.auth, error.message);
      throw new CliError(
        EXIT.uploadFailed,
        `The server at ${server} could not sign you in: ${error.message}`,
      );
    }
    return networkOrThrow(error, server);
  }
};
