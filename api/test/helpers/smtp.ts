import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the local SMTP receiver got it: the envelope and the raw MIME text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A local SMTP receiver (the outside world at the network boundary, DESIGN 'Tests'): plain SMTP on
 * 127.0.0.1, no TLS, no authentication, every message kept in `received`.
 */
export class SmtpReceiver {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;

  /**
   * `beforeAccept`, when given, runs after a message's data has arrived and before the server says 250:
   * a test can hold the answer there (a slow mail server) or break something at that very moment.
   */
  constructor(
    readonly port: number,
    private readonly options: { beforeAccept?: (mail: ReceivedMail) => Promise<void> | void } = {},
  ) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          };
          this.received.push(mail);
          Promise.resolve(this.options.beforeAccept?.(mail)).then(
            () => callback(),
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A port nothing listens on (yet): the receiver can be started on it later. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
