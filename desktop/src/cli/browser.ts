/**
 * Opens a sign-in address in the system browser: AV_UPLOAD_BROWSER names the command ('none': only print
 * the address, for a machine without a desktop or a test), else open (macOS), rundll32's URL handler
 * (Windows: unlike `start`, it takes the '&' in the address as it is) or xdg-open. A failure to launch is
 * not an error: the address is printed anyway, to be opened by hand.
 */
import { spawn } from 'node:child_process';

export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): void {
  const chosen = env.AV_UPLOAD_BROWSER?.trim();
  if (chosen === 'none') return;
  const [command, args]: [string, string[]] = chosen
    ? [chosen, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // printed already
  }
}
