/**
 * A TCP relay of the tests' own in front of the API: it can hold a connection silent once a number of
 * bytes went through (a stalled link: the bytes sent after that reach nothing and nothing comes back),
 * and it closes both ends together, so a client that gives up frees the server's side at once.
 */
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface Relay {
  url: string;
  /** Connections from now on go silent after `bytes` bytes from the client (null: never). */
  stallAfter(bytes: number | null): void;
  close(): Promise<void>;
}

export async function startRelay(target: string): Promise<Relay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let limit: number | null = null;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    const stallAt = limit;
    let forwarded = 0;
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (stallAt !== null && forwarded + chunk.length > stallAt) {
        // Held: what comes after the limit is swallowed, and the server's answers too.
        upstream.write(chunk.subarray(0, Math.max(0, stallAt - forwarded)));
        forwarded = stallAt;
        upstream.removeAllListeners('data');
        return;
      }
      forwarded += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stallAfter: (bytes) => void (limit = bytes),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
