/** `logout`: the token is revoked on the server and forgotten here. */
import { AuthClient } from '../../engine/auth.js';
import { deleteCredentials, readCredentials } from '../config.js';
import { EXIT, networkOrThrow } from '../errors.js';
import type { Command } from './command.js';

export const logout: Command = async ({ home, o }) => {
  const credentials = readCredentials(home);
  if (credentials) {
    try {
      await new AuthClient(credentials.server).logout(credentials.token);
    } catch (error) {
      deleteCredentials(home);
      return networkOrThrow(error, credentials.server);
    }
  }
  deleteCredentials(home);
  if (o.json) o.event({ event: 'logout' });
  else o.out(credentials ? 'Signed out; the token is revoked.' : 'Not signed in.');
  return EXIT.ok;
};
