import { TEST_DATABASE_URL } from './env.js';
import { startTcpFaultProxy } from './fault-proxy.js';
import type { TcpFaultProxy } from './fault-proxy.js';

/**
 * The machine's PostgreSQL behind a TCP fault proxy of the test's own (it is shared, so it is never
 * stopped): `env` sends the app through the proxy with short connect, pool-acquire and statement
 * timeouts, so a refused or held connection is noticed in seconds; `proxy` cuts, refuses and holds it.
 */
export async function postgresBehindProxy(
  timeoutSeconds = 2,
): Promise<{ proxy: TcpFaultProxy; env: Record<string, string> }> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const target = new URL(TEST_DATABASE_URL);
  const proxy = await startTcpFaultProxy({
    target: { host: target.hostname, port: Number(target.port || 5432) },
  });
  const viaProxy = new URL(TEST_DATABASE_URL);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const seconds = String(timeoutSeconds);
  return {
    proxy,
    env: {
      DATABASE_URL: viaProxy.toString(),
      DB_CONNECT_TIMEOUT_SECONDS: seconds,
      DB_ACQUIRE_TIMEOUT_SECONDS: seconds,
      DB_STATEMENT_TIMEOUT_SECONDS: seconds,
    },
  };
}
