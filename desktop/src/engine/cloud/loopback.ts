/**
 * The loopback redirect of a desktop OAuth flow (RFC 8252 §7.3): a one-shot HTTP server on 127.0.0.1 and
 * a port the system picks (or AV_OAUTH_PORT, for a provider console that wants the exact port), that
 * waits for the browser to come back with `?code=…&state=…`. The state must be the one this flow sent (a
 * page of another origin cannot complete a sign-in it did not start); a denial, a wrong state or the
 * time running out each end the flow with their own error.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudAccountError } from './errors.js';

export const CALLBACK_PATH = '/oauth/callback';

export interface Loopback {
  redirectUri: string;
  /** The authorization code, once the browser has come back. */
  code: Promise<string>;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  state: string;
  providerName: string;
  timeoutMs: number;
  port?: number;
  signal?: AbortSignal;
}

function page(title: string, text: string): string {
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>${escape(title)}</title><body style="font:16px system-ui;margin:3em"><h1>${escape(title)}</h1><p>${escape(text)}</p></body>`;
}

export async function startLoopback(options: LoopbackOptions): Promise<Loopback> {
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // Handled by whoever awaits it; this keeps an early rejection from being reported as unhandled.
  code.catch(() => undefined);
  let done = false;
  const finish = (error: Error | null, value?: string) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (error) settle.reject(error);
    else settle.resolve(value!);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const answer = (status: number, title: string, text: string) =>
      res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(page(title, text));
    if (done) return answer(410, 'Sign-in already handled', 'You can close this tab.');
    const params = url.searchParams;
    if (params.get('state') !== options.state) {
      answer(
        400,
        'Sign-in refused',
        'This answer does not belong to the sign-in av-upload started. Nothing was connected.',
      );
      return finish(
        new CloudAccountError(
          'state_mismatch',
          `The answer from ${options.providerName} did not carry this sign-in's state, so it was refused. Nothing was connected; try again.`,
        ),
      );
    }
    const error = params.get('error');
    if (error) {
      const denied = error === 'access_denied' || error === 'consent_required' || error === 'user_cancelled';
      answer(
        200,
        denied ? 'Not connected' : 'Sign-in failed',
        'You can close this tab and return to the app.',
      );
      return finish(
        denied
          ? new CloudAccountError(
              'denied',
              `${options.providerName} access was not granted, so nothing was connected.`,
            )
          : new CloudAccountError(
              'provider_error',
              `${options.providerName} refused the sign-in: ${params.get('error_description') ?? error}.`,
            ),
      );
    }
    const value = params.get('code');
    if (!value) {
      answer(400, 'Sign-in failed', 'The answer carried no authorization code.');
      return finish(
        new CloudAccountError(
          'provider_error',
          `${options.providerName} answered without an authorization code.`,
        ),
      );
    }
    answer(200, `${options.providerName} connected`, 'You can close this tab and return to the app.');
    finish(null, value);
  });

  const timer = setTimeout(
    () =>
      finish(
        new CloudAccountError(
          'timeout',
          `No answer from the browser within ${Math.round(options.timeoutMs / 1000)} s: ${options.providerName} was not connected. Try again.`,
        ),
      ),
    options.timeoutMs,
  );
  timer.unref?.();
  options.signal?.addEventListener('abort', () =>
    finish(new CloudAccountError('cancelled', `Connecting ${options.providerName} was cancelled.`)),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    code,
    close: async () => {
      finish(new CloudAccountError('cancelled', `Connecting ${options.providerName} was cancelled.`));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
