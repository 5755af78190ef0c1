import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Stripe's API at the network boundary (DESIGN 'Tests'): a plain node:http server that the
 * real Stripe SDK is pointed at through its host, port and protocol options (STRIPE_API_URL). It keeps
 * PaymentIntents in memory, answers the few calls the store makes (create, update, retrieve with
 * latest_charge expanded), honours Idempotency-Key like Stripe does (same key: the first answer again), and
 * records every request so a test can read exactly what our code sent.
 *
 * What a browser does with Stripe.js (confirming the intent) is played by `succeed()`.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body, flattened: { 'metadata[order_id]': '…' }. */
  form: Record<string, string>;
}

export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  latest_charge: string | null;
  livemode: false;
  created: number;
}

interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  payment_intent: string;
  payment_method_details: { type: 'card'; card: { brand: string; last4: string } };
}

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly intents = new Map<string, StandInIntent>();
  private readonly charges = new Map<string, Charge>();
  private readonly idempotent = new Map<string, { status: number; body: string }>();
  private server: Server | undefined;
  private counter = 0;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * What Stripe.js confirming the payment in the browser does: the intent succeeds with this card, capturing
   * its amount (or `captured`, to play a provider that took another amount).
   */
  succeed(intentId: string, card = { brand: 'visa', last4: '4242' }, captured?: number): StandInIntent {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`no intent ${intentId}`);
    const amount = captured ?? intent.amount;
    const charge: Charge = {
      id: `ch_${randomBytes(8).toString('hex')}`,
      object: 'charge',
      amount,
      payment_intent: intent.id,
      payment_method_details: { type: 'card', card },
    };
    this.charges.set(charge.id, charge);
    Object.assign(intent, { status: 'succeeded', amount_received: amount, latest_charge: charge.id });
    return intent;
  }

  /** Stripe.js confirmed and the bank has not answered yet (a debit, a slow 3-D Secure): 'processing'. */
  processing(intentId: string): StandInIntent {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`no intent ${intentId}`);
    intent.status = 'processing';
    return intent;
  }

  /** Intents whose next updates Stripe refuses (as it does for any reason of its own). */
  readonly refuseUpdates = new Set<string>();

  /** Requests whose path starts with `prefix`, e.g. '/v1/payment_intents'. */
  calls(method: string, prefix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(prefix));
  }

  private handle(req: IncomingMessage, text: string, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : text));
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      headers: req.headers,
      form,
    };
    this.requests.push(recorded);

    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? `${req.headers.authorization} ${key}` : undefined;
    if (idempotencyKey && this.idempotent.has(idempotencyKey)) {
      const first = this.idempotent.get(idempotencyKey)!;
      this.send(res, first.status, first.body, true);
      return;
    }
    const [status, body] = this.route(recorded, url);
    const json = JSON.stringify(body);
    if (idempotencyKey && recorded.method === 'POST')
      this.idempotent.set(idempotencyKey, { status, body: json });
    this.send(res, status, json, false);
  }

  private send(res: ServerResponse, status: number, json: string, replayed: boolean): void {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
    res.end(json);
  }

  private route(req: RecordedRequest, url: URL): [number, unknown] {
    if (!/^Bearer sk_(test|live)_\w+$/.test(String(req.headers.authorization))) {
      return [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }];
    }
    const one = /^\/v1\/payment_intents\/([\w]+)$/.exec(url.pathname);
    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') return [200, this.create(req.form)];
    if (req.method === 'POST' && url.pathname === '/v1/refunds') return this.refund(req.form);
    if (one && req.method === 'POST') {
      const intent = this.intents.get(one[1]!);
      if (!intent) return notFound(one[1]!);
      const settled = ['succeeded', 'processing', 'requires_capture', 'canceled'].includes(intent.status);
      if ((settled && req.form.amount !== undefined) || this.refuseUpdates.has(intent.id)) {
        return [
          400,
          { error: { type: 'invalid_request_error', message: 'This PaymentIntent cannot be updated.' } },
        ];
      }
      if (req.form.amount !== undefined) intent.amount = Number(req.form.amount);
      if (req.form.description !== undefined) intent.description = req.form.description;
      Object.assign(intent.metadata, metadataOf(req.form));
      return [200, intent];
    }
    if (one && req.method === 'GET') {
      const intent = this.intents.get(one[1]!);
      if (!intent) return notFound(one[1]!);
      const expand = Object.entries(req.form)
        .filter(([name]) => name.startsWith('expand'))
        .map(([, value]) => value);
      if (expand.includes('latest_charge') && intent.latest_charge) {
        return [200, { ...intent, latest_charge: this.charges.get(intent.latest_charge) }];
      }
      return [200, intent];
    }
    return [
      404,
      {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${url.pathname})`,
        },
      },
    ];
  }

  /** Refunds made, by id (a refund of a charge of a succeeded intent, at most what is left of it). */
  readonly refunds = new Map<
    string,
    { id: string; amount: number; payment_intent: string; metadata: Record<string, string> }
  >();

  private refund(form: Record<string, string>): [number, unknown] {
    const intent = this.intents.get(form.payment_intent ?? '');
    if (!intent) return notFound(form.payment_intent ?? '');
    const refunded = [...this.refunds.values()]
      .filter((r) => r.payment_intent === intent.id)
      .reduce((sum, r) => sum + r.amount, 0);
    const amount = form.amount === undefined ? intent.amount_received - refunded : Number(form.amount);
    if (intent.status !== 'succeeded' || amount > intent.amount_received - refunded) {
      return [
        400,
        {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: `Refund amount (${amount}) is greater than unrefunded amount on charge`,
          },
        },
      ];
    }
    const refund = {
      id: `re_standin${String(this.refunds.size + 1).padStart(6, '0')}`,
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      status: 'succeeded',
      metadata: metadataOf(form),
    };
    this.refunds.set(refund.id, refund);
    return [200, refund];
  }

  private create(form: Record<string, string>): StandInIntent {
    this.counter++;
    const id = `pi_standin${String(this.counter).padStart(6, '0')}`;
    const intent: StandInIntent = {
      id,
      object: 'payment_intent',
      amount: Number(form.amount),
      amount_received: 0,
      currency: form.currency ?? 'usd',
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      description: form.description ?? null,
      metadata: metadataOf(form),
      automatic_payment_methods:
        form['automatic_payment_methods[enabled]'] === undefined
          ? null
          : { enabled: form['automatic_payment_methods[enabled]'] === 'true' },
      latest_charge: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    this.intents.set(id, intent);
    return intent;
  }
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) {
    const match = /^metadata\[(.+)\]$/.exec(name);
    if (match) out[match[1]!] = value;
  }
  return out;
}

function notFound(id: string): [number, unknown] {
  return [
    404,
    {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such payment_intent: '${id}'`,
      },
    },
  ];
}

/** A Stripe event as its webhook delivers it. */
export function stripeEvent(id: string, type: string, object: unknown): string {
  return JSON.stringify(
    {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    },
    null,
    2,
  );
}
