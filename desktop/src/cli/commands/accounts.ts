/** `accounts list|connect|disconnect PROVIDER`: the cloud accounts files can be imported from. */
import { parseProvider } from '../../engine/cloud/index.js';
import { cloudFailure, openCloud } from '../cloud.js';
import { CliError, EXIT } from '../errors.js';
import type { Command } from './command.js';

export const accounts: Command = async ({ args: [action, ...rest], home, o }) => {
  const cloud = openCloud(home, o);
  if (action === undefined || action === 'list') {
    const all = cloud.providers();
    if (o.json) o.event({ event: 'accounts', providers: all });
    else
      for (const p of all)
        o.out(
          `${p.providerName.padEnd(13)} ${
            p.account
              ? `connected as ${p.account.email ?? p.account.name ?? '(unknown)'} since ${p.account.connectedAt}`
              : p.configured
                ? 'not connected'
                : p.message
          }`,
        );
    return EXIT.ok;
  }
  const provider = rest[0] ? parseProvider(rest[0]) : null;
  if (!provider || rest.length > 1)
    throw new CliError(EXIT.usage, `accounts ${action} takes one PROVIDER: drive, dropbox, box or onedrive.`);
  switch (action) {
    case 'connect': {
      const controller = new AbortController();
      const abort = () => controller.abort();
      process.once('SIGINT', abort);
      try {
        const account = await cloud.connect(provider, { signal: controller.signal }).catch(cloudFailure);
        if (o.json) o.event({ event: 'connected', ...account });
        else o.out(`${account.providerName} connected as ${account.email ?? account.name ?? '(unknown)'}.`);
        return EXIT.ok;
      } finally {
        process.off('SIGINT', abort);
      }
    }
    case 'disconnect': {
      const result = await cloud.disconnect(provider);
      if (o.json) o.event({ event: 'disconnected', ...result });
      else o.out(result.message);
      return EXIT.ok;
    }
    default:
      throw new CliError(EXIT.usage, `Unknown accounts action: ${action} (list, connect or disconnect).`);
  }
};
