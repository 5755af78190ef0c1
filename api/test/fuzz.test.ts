import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieName } from '../src/modules/accounts/index.js';
import { createSession } from '../src/modules/accounts/sessions.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { invite } from '../src/modules/staff-members/invitations.js';
import { createEvent } from '../src/modules/upload-events/service.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import type { TestDialect } from './helpers/env.js';
import {
  field,
  malformedJson,
  mostly,
  nastyHeader,
  nastyParam,
  nastyString,
  nastyValue,
  POLLUTION,
  toJsonText,
} from './helpers/fuzz-inputs.js';
import { fillPath, registeredRoutes } from './helpers/routes.js';
import { customerFor, Exhibitor, seeded, VISA } from './helpers/store.js';
import type { IntentJson, StoreJson } from './helpers/store.js';
import { StripeStandIn, stripeEvent } from './helpers/stripe-stand-in.js';

/**
 * Property-based fuzzing of every API route over HTTP, against the real app and database: hostile bodies,
 * route parameters, query strings and headers, from anonymous, client and staff callers. Whatever comes
 * in, the answer is never a 5xx, the server stays healthy, and Object.prototype stays clean.
 *
 * Replay a run with the seed it prints: FUZZ_SEED=<seed> FUZZ_RUNS=<runs> npx vitest run api/test/fuzz.test.ts
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_301);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const WEBHOOK_SECRET = 'whsec_fuzz_0123456789abcdef';
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_fuzz0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fuzz0123456789',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};
const STAFF = { email: 'grace@example.com', password: 'Staff passphrase 9' };
const CLIENT_EMAIL = 'ada@example.com';

type Caller = 'anonymous' | 'client' | 'staff';

/** What the suite made before fuzzing, so that cases can name things that exist. */
interface Fixture {
  main: TestApp;
  stripe: TestApp;
  clientId: number;
  staffId: number;
  storeIds: string[];
  demoStore: StoreJson;
  storeKeys: string[];
  productIds: number[];
  order: IntentJson;
  paidOrder: IntentJson;
  stripeIntentIds: string[];
  openSubmission: string;
  openFile: string;
  sentSubmission: string;
  sentFile: string;
  /** A second owner, so that roles and deactivation are fuzzed on someone other than the fuzzing staff. */
  memberId: number;
  invitationId: number;
  uploadEventId: string;
}

interface Body {
  bytes: string | Uint8Array;
  contentType?: string;
}

interface FuzzCase {
  route: string;
  app: 'main' | 'stripe';
  caller: Caller;
  bearer: boolean;
  path: string;
  query: string;
  body?: Body;
  origin: 'same' | 'none' | 'cross';
  headers: Record<string, string>;
}

/** How a route is fuzzed: who gets past its access check, real values for its parameters, its inputs. */
interface Endpoint {
  route: string;
  /** The Stripe webhook needs a server with Stripe keys; everything else runs against the test gateway. */
  app?: 'stripe';
  caller: Caller | 'anyone';
  params?: Record<string, (string | number)[]>;
  query?: Record<string, fc.Arbitrary<unknown>>;
  fields?: Record<string, fc.Arbitrary<unknown>>;
  raw?: fc.Arbitrary<Body>;
  headers?: Record<string, fc.Arbitrary<string>>;
}

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A PNG header promising 6000×6000 pixels over the data of a 1×1 image: it reads as a PNG, decodes as none. */
const PNG_LYING = Buffer.from(PNG_1X1);
PNG_LYING.writeUInt32BE(6000, 16);
PNG_LYING.writeUInt32BE(6000, 20);

const bytes = fc.oneof(
  fc.constantFrom<Uint8Array | string>(
    PNG_1X1,
    PNG_1X1.subarray(0, 40),
    PNG_LYING,
    Buffer.concat([PNG_1X1, Buffer.alloc(64, 0xff)]),
    'GIF89a\u0001\u0000\u0001\u0000',
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    '\u0000',
    '',
    'hello',
  ),
  fc.uint8Array({ maxLength: 2_048 }),
);

function rawBody(contentTypes: string[]): fc.Arbitrary<Body> {
  return fc.record({
    bytes,
    contentType: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...contentTypes) }, nastyHeader),
  });
}

const dateish = field('2030-01-01', '2030-01-05', '2030-12-31', '1999-01-01', '2030-02-30');
const ids = (values: (string | number)[]) => field(...values, ...values.map(String));
const unique = (make: (n: number) => string) => fc.nat().map(make);

function endpoints(f: Fixture): Endpoint[] {
  const email = field(CLIENT_EMAIL, STAFF.email, 'nobody@example.com', ' ADA@Example.com ');
  const password = field('Difference Engine 1843', 'password', 'x'.repeat(129));
  const registrationFields = {
    ...Object.fromEntries(Object.entries(registration()).map(([key, value]) => [key, field(value)])),
    email: fc.oneof(
      unique((n) => `fuzz${n}@example.com`),
      email,
    ),
  };
  const order = { orderId: [f.order.orderId, f.paidOrder.orderId] };
  const orderToken = { 'x-order-token': fc.constantFrom(f.order.token, f.paidOrder.token) };
  const cart = fc.uniqueArray(
    fc.record({ productId: mostly(...f.productIds), count: mostly(1, 2, 25, '3') }),
    { selector: (line) => line.productId, minLength: 1, maxLength: 3 },
  );
  const customer = fc.record(
    Object.fromEntries(Object.entries(customerFor(f.demoStore)).map(([k, v]) => [k, mostly(v)])),
  );
  const storeForm = {
    name: field('Fuzz Expo'),
    store_id: fc.oneof(
      unique((n) => `fuzz-${n}`),
      field('demo-expo'),
    ),
    image: field('logo.png', null),
    deadline: field('2030-01-01'),
    start_date: field('2030-01-05'),
    end_date: field('2030-01-07'),
    order_cutoff: field('2030-01-02', null, ''),
    bcc: field('', 'a@example.com, b@example.com'),
    email_text: field('Thanks'),
    store_text: field('Welcome'),
    is_active: field(true, false),
    is_archived: field(false),
    copy_prices_from: field(...f.storeKeys.map(Number)),
    stripe_publishable_key: field(''),
    stripe_secret_key: field(''),
  };
  const storeKey = { id: f.storeKeys };
  const productFields = {
    name: field('Fuzz Mic'),
    description: field('A microphone'),
    images: field(['/media/products/a.webp'], []),
    is_active: field(true, false),
    sort_order: field(1, 99),
  };
  const listQuery = {
    store: ids(f.storeKeys),
    status: field('settled', 'all', 'pending', 'paid', 'refunded'),
    from: dateish,
    to: dateish,
  };
  const submission = { submissionId: [f.openSubmission, f.sentSubmission] };
  const file = { fileId: [f.openFile, f.sentFile] };
  const sha = field('0'.repeat(64), 'abc');
  const uploadEvent = { id: [f.uploadEventId] };
  const spec = {
    containers: ['mp4', 'mov'],
    videoCodecs: ['h264'],
    resolutions: [{ width: 1920, height: 1080 }],
    frameRates: [25, 29.97],
    minDurationSeconds: 5,
    maxDurationSeconds: 600,
    audio: 'required',
    maxSizeBytes: 2 ** 30,
    onMismatch: 'block',
  };
  const uploadEventFields = {
    name: fc.oneof(
      unique((n) => `Fuzz Event ${n}`),
      field('Fuzz Expo 2031', 'x'.repeat(121)),
    ),
    startsOn: field('2031-03-03', '2031-02-30'),
    endsOn: field('2031-03-05', '2031-03-01'),
    timeZone: field('America/New_York', 'UTC', 'Mars/Base', '../../etc/localtime'),
    deadline: field('2031-03-01T17:00', '2027-03-14T02:30', '2031-03-01'),
    specs: fc.record({
      creative: fc.oneof(
        fc.constant(null),
        fc.record(Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, mostly(v)]))),
      ),
      event: field(null, spec),
      sponsor: field(null, { ...spec, onMismatch: 'warn', resolutions: [{ width: -1, height: 1e9 }] }),
    }),
  };

  return [
    { route: 'GET /api/health', caller: 'anyone' },
    { route: 'GET /api/ready', caller: 'anyone' },
    { route: 'GET /api/session', caller: 'anyone' },
    {
      route: 'POST /api/auth/login',
      caller: 'anyone',
      fields: { email, password, token: field(true), requireRole: field('staff') },
    },
    { route: 'POST /api/auth/logout', caller: 'anyone', fields: {} },
    { route: 'POST /api/auth/register', caller: 'anonymous', fields: registrationFields },
    { route: 'POST /api/auth/forgot-password', caller: 'anyone', fields: { email } },
    {
      route: 'POST /api/auth/reset-password',
      caller: 'anyone',
      fields: { token: field('a'.repeat(43)), password, confirmPassword: password },
    },
    { route: 'GET /api/account', caller: 'client' },
    { route: 'PUT /api/account', caller: 'client', fields: registrationFields },
    ...['POST /api/contact', 'POST /api/submitContact.php'].map((route): Endpoint => ({
      route,
      caller: 'anyone',
      fields: {
        firstname: field('Ada'),
        lastname: field('Lovelace'),
        email,
        phone: field('(555) 123-4567'),
        company: field('Acme'),
        title: field('CTO'),
        message: field('Hello'),
        hottrends: field('YES', 'NO'),
        variant: field('contact', 'newsletter'),
        website: field(''),
      },
    })),
    { route: 'GET /api/stores', caller: 'anyone' },
    { route: 'GET /api/stores/:storeId', caller: 'anyone', params: { storeId: f.storeIds } },
    {
      route: 'POST /api/stores/:storeId/payment-intents',
      caller: 'anyone',
      params: { storeId: f.storeIds },
      fields: { cart },
    },
    { route: 'GET /api/orders/:orderId', caller: 'anyone', params: order, headers: orderToken },
    {
      route: 'PUT /api/orders/:orderId',
      caller: 'anyone',
      params: order,
      headers: orderToken,
      fields: { cart, customer },
    },
    {
      route: 'POST /api/orders/:orderId/pay',
      caller: 'anyone',
      params: order,
      headers: orderToken,
      fields: {
        card: fc.record({
          number: mostly(VISA.number, '4000 0000 0000 0002'),
          expiry: mostly(VISA.expiry, '13 / 99'),
          cvc: mostly('123'),
        }),
      },
    },
    {
      route: 'POST /api/orders/:orderId/confirm',
      caller: 'anyone',
      params: order,
      headers: orderToken,
      fields: {},
    },
    {
      route: 'POST /api/webhooks/stripe',
      app: 'stripe',
      caller: 'anonymous',
      raw: webhookBody(f.stripeIntentIds),
    },
    {
      route: 'POST /api/uploads/submissions',
      caller: 'client',
      fields: {
        form_type: field('creative', 'event', 'sponsor'),
        project_name: field('Keynote'),
        event_name: field('Expo 2027'),
        session_datetime: field('2027-03-01 09:30:00', '2027-02-30 25:61:00'),
        speaker_name: field('Grace'),
        room_no: field('B12'),
        sponsor_company: field('Acme AV'),
        description: field('Slides'),
        resume_id: field(f.openSubmission, f.sentSubmission),
      },
    },
    { route: 'GET /api/uploads/submissions/:submissionId', caller: 'client', params: submission },
    {
      route: 'POST /api/uploads/submissions/:submissionId/files',
      caller: 'client',
      params: submission,
      fields: {
        name: field('clip.mov', '../../etc/passwd'),
        size: field(5, 0, 6_291_457),
        type: field('video/quicktime'),
        lastModified: field(1_700_000_000_000),
        sha256: sha,
      },
    },
    {
      route: 'POST /api/uploads/submissions/:submissionId/files/batch',
      caller: 'client',
      params: submission,
      fields: {
        files: field(
          [{ name: 'still-1.jpg', size: 5, type: 'image/jpeg', lastModified: 1_700_000_000_000 }],
          [
            { name: 'still-2.jpg', size: 1, lastModified: null },
            { name: '../../etc/passwd', size: -1 },
          ],
          [{ name: 'still-3.jpg', size: 6_291_457, lastModified: 1, replaces: f.openFile }],
          [],
          'still.jpg',
          Array.from({ length: 501 }, (_, i) => ({ name: `s${i}.jpg`, size: 1, lastModified: i })),
        ),
      },
    },
    {
      route: 'POST /api/uploads/submissions/:submissionId/submit',
      caller: 'client',
      params: submission,
      fields: { files: field([f.openFile], [f.sentFile], []) },
    },
    { route: 'GET /api/uploads/files/:fileId', caller: 'client', params: file },
    { route: 'GET /api/uploads/cloud-config', caller: 'anyone' },
    { route: 'GET /api/uploads/imports', caller: 'client' },
    {
      route: 'POST /api/uploads/submissions/:submissionId/imports',
      caller: 'client',
      params: submission,
      fields: {
        provider: field('google-drive', 'dropbox', 'box', 'onedrive', 'ftp'),
        fileId: field('abc123', 'id:x', '1234', 'drive!item', '../../etc/passwd'),
        link: field('http://127.0.0.1:9/dl/x', 'http://169.254.169.254/latest', 'file:///etc/passwd'),
        name: field('clip.mov', '../x'),
        size: field(5, -1, 2 ** 60),
        accessToken: field('token'),
      },
    },
    {
      route: 'POST /api/uploads/imports/:fileId/token',
      caller: 'client',
      params: file,
      fields: { accessToken: field('token'), link: field('http://127.0.0.1:9/dl/y', 'javascript:alert(1)') },
    },
    { route: 'POST /api/uploads/cloud/box/token', caller: 'client', fields: { code: field('code', '') } },
    {
      route: 'PUT /api/uploads/files/:fileId/parts/:partNumber',
      caller: 'client',
      params: { ...file, partNumber: [1, 2] },
      // The file's sha-256, to complete it with its part (issue #34).
      query: { sha256: sha },
      raw: rawBody(['application/octet-stream']),
    },
    {
      // Bundles (#34): whole files one after another in the body, listed as id:size:sha-256.
      route: 'POST /api/uploads/bundles',
      caller: 'client',
      query: {
        files: field(
          `${f.openFile}:5:${'0'.repeat(64)}`,
          `${f.openFile}:5:${'0'.repeat(64)},${f.sentFile}:1:${'1'.repeat(64)}`,
          `${f.sentFile}:5:${'0'.repeat(64)}`,
          `${f.openFile}:0:${'0'.repeat(64)}`,
          `${f.openFile}:6291457:${'0'.repeat(64)}`,
          `${f.openFile}:5:abc`,
          `../../etc/passwd:5:${'0'.repeat(64)}`,
          Array.from(
            { length: 33 },
            (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}:1:${'0'.repeat(64)}`,
          ).join(','),
          '',
          ':::,,,',
        ),
      },
      raw: rawBody(['application/octet-stream']),
    },
    {
      route: 'POST /api/uploads/files/:fileId/complete',
      caller: 'client',
      params: file,
      fields: { sha256: sha },
    },
    { route: 'DELETE /api/uploads/files/:fileId', caller: 'client', params: file },
    {
      route: 'GET /api/uploads/inbox',
      caller: 'staff',
      query: {
        q: field('acme', 'clip.mov', '%', "'"),
        formType: field('creative', 'event', 'sponsor'),
        event: field('Fuzz Expo 2031', 'Expo 2027'),
        review: field('new', 'accepted', 'needs_new_version'),
        handled: field('yes', 'no'),
        spec: field('mismatch', 'warn', 'none'),
        from: dateish,
        to: field('2030-12-31', '2031-03-01T17:00:00Z'),
        submission: field(f.openSubmission, f.sentSubmission, 'not-a-uuid'),
        page: field(1, 2, 100_001),
        pageSize: field(1, 50, 10_000),
      },
    },
    {
      route: 'PUT /api/uploads/inbox/:submissionId/handled',
      caller: 'staff',
      params: submission,
      fields: { handled: field(true, false) },
    },
    {
      route: 'GET /api/uploads/inbox/files/:fileId/download',
      caller: 'staff',
      params: file,
      headers: {
        range: fc.oneof(
          fc.constantFrom(
            'bytes=0-1',
            'bytes=-1',
            'bytes=3-',
            'bytes=4-1',
            'bytes=0-99999999999999999999',
            'bytes=0-0,2-3',
            'bytes=-0',
            'items=0-1',
          ),
          nastyHeader,
        ),
      },
    },
    { route: 'GET /api/staff/settings', caller: 'staff' },
    { route: 'GET /api/staff/stores', caller: 'staff' },
    { route: 'POST /api/staff/stores', caller: 'staff', fields: storeForm },
    { route: 'PUT /api/staff/stores/:id', caller: 'staff', params: storeKey, fields: storeForm },
    {
      route: 'POST /api/staff/stores/:id/active',
      caller: 'staff',
      params: storeKey,
      fields: { is_active: field(true, false) },
    },
    {
      route: 'POST /api/staff/stores/:id/archive',
      caller: 'staff',
      params: storeKey,
      fields: { is_archived: field(true, false) },
    },
    { route: 'DELETE /api/staff/stores/:id', caller: 'staff', params: storeKey },
    { route: 'GET /api/staff/store-images', caller: 'staff' },
    {
      route: 'POST /api/staff/store-images',
      caller: 'staff',
      query: { name: field('logo.png', '../../logo.png', '.png') },
      raw: rawBody(['image/png', 'image/gif', 'image/svg+xml']),
    },
    { route: 'GET /api/staff/stores/:id/prices', caller: 'staff', params: storeKey },
    {
      route: 'PUT /api/staff/stores/:id/prices',
      caller: 'staff',
      params: storeKey,
      fields: {
        prices: fc.array(
          fc.record({ product_id: mostly(...f.productIds), unit_amount: mostly(1_000, 0, -1) }),
          { maxLength: 4 },
        ),
      },
    },
    {
      route: 'GET /api/staff/stores/:id/pull-sheet',
      caller: 'staff',
      params: storeKey,
      query: { date: dateish },
    },
    {
      route: 'GET /api/staff/overview',
      caller: 'staff',
      query: { storeId: ids(f.storeKeys), from: dateish, to: dateish },
    },
    { route: 'GET /api/staff/products', caller: 'staff' },
    { route: 'POST /api/staff/products', caller: 'staff', fields: productFields },
    {
      route: 'PUT /api/staff/products/:id',
      caller: 'staff',
      params: { id: f.productIds },
      fields: productFields,
    },
    {
      route: 'POST /api/staff/products/reorder',
      caller: 'staff',
      fields: { ids: fc.shuffledSubarray(f.productIds, { minLength: f.productIds.length }) },
    },
    {
      route: 'POST /api/staff/product-images',
      caller: 'staff',
      query: { name: field('mic.jpg', '..', 'a'.repeat(300)) },
      raw: rawBody(['image/png', 'image/jpeg', 'image/webp']),
    },
    { route: 'GET /api/staff/orders', caller: 'staff', query: listQuery },
    { route: 'GET /api/staff/orders.csv', caller: 'staff', query: listQuery },
    { route: 'GET /api/staff/orders/:orderId', caller: 'staff', params: order },
    {
      route: 'POST /api/staff/orders/:orderId/refunds',
      caller: 'staff',
      params: order,
      fields: {
        amount: field(1, 0.5, 1_000),
        reason: field('Damaged'),
        key: fc.oneof(
          unique((n) => `fuzz-key-${n}`),
          field('refund-key-1'),
        ),
      },
    },
    {
      route: 'POST /api/staff/orders/:orderId/resend-confirmation',
      caller: 'staff',
      params: order,
      fields: {},
    },
    {
      route: 'GET /api/staff/audit',
      caller: 'staff',
      query: { store: ids(f.storeKeys), before: field(1, 100), limit: field(1, 500, 501) },
    },
    ...secondFactorEndpoints(),
    ...staffMemberEndpoints(f),
    { route: 'GET /api/upload-events', caller: 'client' },
    { route: 'GET /api/staff/upload-events', caller: 'staff' },
    { route: 'POST /api/staff/upload-events', caller: 'staff', fields: uploadEventFields },
    {
      route: 'PATCH /api/staff/upload-events/:id',
      caller: 'staff',
      params: uploadEvent,
      fields: uploadEventFields,
    },
    ...['archive', 'restore'].map((action): Endpoint => ({
      route: `POST /api/staff/upload-events/:id/${action}`,
      caller: 'staff',
      params: uploadEvent,
      fields: {},
    })),
    { route: 'GET /api/staff/stores/:id/stock', caller: 'staff', params: storeKey },
    {
      route: 'PUT /api/staff/stores/:id/stock/:productId',
      caller: 'staff',
      params: { ...storeKey, productId: f.productIds },
      fields: { limit: field(5, 0, null, -1, 2.5, 1e12, '7') },
    },
    { route: 'GET /api/uploads/mine', caller: 'client' },
    {
      route: 'PUT /api/uploads/inbox/files/:fileId/review',
      caller: 'staff',
      params: file,
      fields: {
        state: field('new', 'accepted', 'needs_new_version', 'rejected'),
        message: field('Please export at 1920×1080.', null, '', 'x'.repeat(5_000)),
      },
    },
    { route: 'GET /api/uploads/inbox/files/:fileId/poster', caller: 'staff', params: file },
    {
      route: 'GET /api/uploads/pull',
      caller: 'staff',
      query: {
        event: field('Fuzz Expo 2031', 'Expo 2027', 'nope', 'x'.repeat(201)),
        acceptedOnly: field('0', '1', 'true', 'yes'),
        format: field('json', 'csv', 'xml'),
      },
    },
    // The spec's original calls (modules/legacy): base64 fields, the original's names.
    {
      route: 'POST /api/login.php',
      caller: 'anyone',
      fields: { email, password: field(b64('Difference Engine 1843'), 'not base64!', '') },
    },
    { route: 'POST /api/logout.php', caller: 'anyone', fields: {} },
    {
      route: 'POST /api/updateUser.php',
      caller: 'anyone',
      fields: { ...registrationFields, password: field(b64('Difference Engine 1843'), '%%%') },
    },
    { route: 'POST /api/forgotPassword.php', caller: 'anyone', fields: { email } },
    { route: 'GET /api/status.php', caller: 'anyone' },
    { route: 'POST /api/status.php', caller: 'anyone', fields: {} },
    { route: 'GET /api/check.php', caller: 'anyone' },
    {
      route: 'POST /api/log.php',
      caller: 'anyone',
      fields: { type: field('error', 'x'.repeat(65)), data: field({ message: 'boom' }, 'text', null) },
    },
    {
      route: 'GET /api/log.php',
      caller: 'staff',
      query: { type: field('error'), before: field(1, 100), limit: field(1, 500, 501) },
    },
    {
      route: 'POST /api/submitForm.php',
      caller: 'client',
      fields: {
        form_type: field('creative', 'event', 'sponsor', 'other'),
        action: field('init', 'part', 'finish', 'send', 'other'),
        project_name: field('Spring launch'),
        event_name: field('Expo 2030'),
        sponsor_company: field('Acme AV'),
        session_datetime: field('2030-01-05 09:30:00', 'tomorrow'),
        speaker_name: field('Ada'),
        file_name: field('clip.mov', '../clip.mov'),
        file_size: field(5, -1, 1e20),
        file: field(b64('hello'), 'not base64!'),
        part_number: field(1, 0, 99999),
        files: field({ 'clip.mov': 5 }, []),
        auth_file_url: field({}, { 'clip.mov': { link: 'https://example.com/x', token: 't' } }),
      },
    },
    ...['GET', 'POST'].map((method): Endpoint => ({
      route: `${method} /api/getStoreData.php`,
      caller: 'anyone',
      ...(method === 'GET'
        ? { query: { store_id: field('demo-expo', 'demo-late', 'nope') } }
        : { fields: { store_id: field('demo-expo', 'demo-late', 'nope') } }),
    })),
    { route: 'GET /api/getAllStores.php', caller: 'anyone' },
    { route: 'POST /api/getAllStores.php', caller: 'anyone', fields: {} },
    {
      route: 'POST /api/updateStore.php',
      caller: 'staff',
      fields: {
        ...storeForm,
        id: field(...f.storeKeys.map(Number)),
        email_text: field(b64('Thanks'), '%%%'),
        store_text: field(b64('Welcome')),
        bcc: field(b64('a@example.com'), ''),
        is_active: field(1, 0, true),
      },
    },
    {
      route: 'POST /api/deleteStore.php',
      caller: 'staff',
      fields: { storeId: field(...f.storeKeys.map(Number), 'demo-archived') },
    },
    {
      route: 'POST /api/stripeIntent.php',
      caller: 'anyone',
      fields: {
        store_id: field('demo-expo', 'demo-late'),
        secretKey: field('sk_test_nope'),
        cart: fc.array(
          fc.record({ product: fc.record({ id: mostly(...f.productIds) }), count: mostly(1, 25) }),
          {
            maxLength: 3,
          },
        ),
        intentID: field('', 'abc.def'),
        userInfo: customer,
        discount: field(0, 0.2, 1),
      },
    },
    {
      route: 'POST /api/sendOrderConfirmationEmail.php',
      caller: 'anyone',
      fields: {
        storeId: field('demo-expo'),
        intentID: field('', `${f.paidOrder.orderId}.${f.paidOrder.token}`, 'abc.def'),
        confirmation: field('K7M3-9QXD'),
      },
    },
    {
      route: 'POST /api/charge.php',
      caller: 'staff',
      fields: {
        card: field({ number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' }, {}),
        amount: field(100, 49, 100_001),
        currency: field('usd', 'xxx'),
      },
    },
  ];
}

const pendingToken = field('a'.repeat(43), '', '../../etc/passwd');
const credential = field(
  {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA', userHandle: 'AAAA' },
  },
  { id: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'o2Nm' } },
  { id: '../x', response: null },
);
const code = field('123456', '000000', 'ABCD-EFGH-JKLM', '', '1234567');

/** #33: passkeys, an authenticator app, recovery codes and fresh sign-in. */
function secondFactorEndpoints(): Endpoint[] {
  const passkey = { id: [1, 2, 99_999] };
  const passkeyName = { name: field('Laptop', '', 'x'.repeat(200)) };
  return [
    { route: 'POST /api/auth/second-factor', caller: 'anyone', fields: { pendingToken, code } },
    { route: 'POST /api/auth/second-factor/passkey-options', caller: 'anyone', fields: { pendingToken } },
    {
      route: 'POST /api/auth/second-factor/passkey',
      caller: 'anyone',
      fields: { pendingToken, credential },
    },
    { route: 'POST /api/auth/passkey-options', caller: 'anyone', fields: {} },
    { route: 'POST /api/auth/passkey', caller: 'anyone', fields: { credential, token: field(true, false) } },
    { route: 'GET /api/account/second-factor', caller: 'client' },
    { route: 'POST /api/account/passkeys/options', caller: 'client', fields: {} },
    { route: 'POST /api/account/passkeys', caller: 'client', fields: { ...passkeyName, credential } },
    { route: 'PATCH /api/account/passkeys/:id', caller: 'client', params: passkey, fields: passkeyName },
    { route: 'DELETE /api/account/passkeys/:id', caller: 'client', params: passkey },
    { route: 'POST /api/account/totp', caller: 'client', fields: {} },
    { route: 'POST /api/account/totp/confirm', caller: 'client', fields: { code } },
    { route: 'DELETE /api/account/totp', caller: 'client' },
    { route: 'POST /api/account/recovery-codes', caller: 'client', fields: {} },
    { route: 'POST /api/accounts/reauthenticate/options', caller: 'client', fields: {} },
    {
      route: 'POST /api/accounts/reauthenticate',
      caller: 'client',
      fields: { password: field('Difference Engine 1843', 'wrong', ''), code, credential },
    },
    { route: 'GET /api/staff-settings/second-factor', caller: 'staff' },
    // Only false as the plausible value: turning the requirement on is the owner's, and harmless here
    // (sessions made by the suite are not asked to set up a factor), but it is not what is being fuzzed.
    { route: 'PUT /api/staff-settings/second-factor', caller: 'staff', fields: { required: field(false) } },
  ];
}

/** #33: the owner's staff management, and the invitee's lookup and accept. */
function staffMemberEndpoints(f: Fixture): Endpoint[] {
  const member = { id: [f.memberId] };
  const roles = field(['media'], ['store_manager', 'finance'], ['owner'], [], ['root'], ['media', 'media']);
  const token = field('a'.repeat(43), 'short', '../../etc/passwd');
  return [
    { route: 'GET /api/staff/members', caller: 'staff' },
    { route: 'PUT /api/staff/members/:id/roles', caller: 'staff', params: member, fields: { roles } },
    ...['deactivate', 'reactivate'].map((action): Endpoint => ({
      route: `POST /api/staff/members/:id/${action}`,
      caller: 'staff',
      params: member,
      fields: {},
    })),
    { route: 'GET /api/staff/invitations', caller: 'staff' },
    {
      route: 'POST /api/staff/invitations',
      caller: 'staff',
      fields: {
        email: fc.oneof(
          unique((n) => `invitee${n}@example.com`),
          field(CLIENT_EMAIL, STAFF.email, 'not an address'),
        ),
        roles,
      },
    },
    { route: 'DELETE /api/staff/invitations/:id', caller: 'staff', params: { id: [f.invitationId] } },
    { route: 'POST /api/staff-invitations/lookup', caller: 'anyone', fields: { token } },
    {
      route: 'POST /api/staff-invitations/accept',
      caller: 'anyone',
      fields: {
        token,
        firstName: field('Mary'),
        lastName: field('Jackson'),
        password: field('Wind tunnel 1958 ok', 'short'),
      },
    },
  ];
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Stripe events, signed with the server's secret (so parsing and settling are reached) or not. */
function webhookBody(intentIds: string[]): fc.Arbitrary<Body & { signature?: string }> {
  const event = fc
    .record({
      id: fc.oneof(fc.constantFrom('evt_1', 'evt_2'), nastyString),
      type: field('payment_intent.succeeded', 'payment_intent.payment_failed', 'charge.refunded'),
      object: fc.oneof(
        fc.record({ id: mostly(...intentIds, 'pi_unknown'), object: mostly('payment_intent') }),
        nastyValue,
      ),
    })
    .map(({ id, type, object }) => stripeEvent(String(id), type as string, object));
  return fc
    .record({
      payload: fc.oneof({ weight: 3, arbitrary: event }, malformedJson),
      signed: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
      signature: nastyHeader,
    })
    .map(({ payload, signed, signature }) => ({
      bytes: payload,
      contentType: 'application/json',
      signature: signed
        ? Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })
        : signature,
    }));
}

const REMOVED = Symbol('removed');

/**
 * A JSON body: the endpoint's fields with plausible values, one or two of them swapped for something
 * hostile or left out (so the rest passes validation and the hostile value travels as far as it can);
 * or prototype-polluting keys, a hostile value in place of the object, or text that is not JSON at all.
 */
function jsonBody(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Body> {
  const keys = Object.keys(fields);
  const mutation = fc.tuple(
    keys.length > 0 ? fc.constantFrom(...keys) : fc.string(),
    fc.oneof({ weight: 4, arbitrary: nastyValue }, fc.constant(REMOVED)),
  );
  const object = fc
    .record({
      base: fc.record(fields),
      mutations: fc.oneof(fc.constant([]), fc.array(mutation, { minLength: 1, maxLength: 2 })),
    })
    .map(({ base, mutations }) => {
      const out: Record<string, unknown> = { ...base };
      for (const [key, value] of mutations) {
        if (value === REMOVED) delete out[key];
        else out[key] = value;
      }
      return out;
    });
  const text = fc.oneof(
    { weight: 8, arbitrary: object.map(toJsonText) },
    { weight: 1, arbitrary: object.map((o) => toJsonText({ ...(JSON.parse(POLLUTION) as object), ...o })) },
    { weight: 1, arbitrary: nastyValue.map(toJsonText) },
    { weight: 1, arbitrary: malformedJson },
  );
  const contentType = fc.oneof(
    { weight: 20, arbitrary: fc.constant('application/json') },
    fc.constantFrom(
      'text/plain',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/x-www-form-urlencoded',
      'application/merge-patch+json',
    ),
    fc.constant(undefined),
  );
  return fc.record({ bytes: text, contentType });
}

/** A field's value as a query string carries it (lone surrogates cannot be percent-encoded). */
function queryValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return encodeURIComponent(text.replace(/\p{Cs}/gu, '\ufffd'));
}

function queryString(names: Record<string, fc.Arbitrary<unknown>> | undefined): fc.Arbitrary<string> {
  const known = Object.entries(names ?? {});
  const pair = fc.oneof(
    ...known.map(([name, value]) =>
      fc.record({ name: fc.constant(name), value: fc.oneof(value.map(queryValue), nastyParam) }),
    ),
    fc.record({
      name: fc.constantFrom('__proto__[polluted]', 'constructor[prototype][polluted]', 'a[]', 'x'),
      value: nastyParam,
    }),
  );
  return fc
    .array(pair, { maxLength: known.length > 0 ? 5 : 1 })
    .map((pairs) =>
      pairs.length === 0 ? '' : `?${pairs.map(({ name, value }) => `${name}=${value}`).join('&')}`,
    );
}

function caseOf(e: Endpoint): fc.Arbitrary<FuzzCase> {
  const [method = 'GET', pattern = '/'] = e.route.split(' ');
  const params = Object.fromEntries(
    [...pattern.matchAll(/:(\w+)/g)].map(([, name = '']) => {
      const real = (e.params?.[name] ?? []).map(String);
      return [
        name,
        real.length > 0
          ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 2, arbitrary: nastyParam })
          : nastyParam,
      ];
    }),
  );
  const others: Caller[] = (['anonymous', 'client', 'staff'] as const).filter((c) => c !== e.caller);
  // The Stripe server has no accounts: its webhook is called anonymously, as Stripe does.
  const caller: fc.Arbitrary<Caller> =
    e.app === 'stripe'
      ? fc.constant('anonymous')
      : e.caller === 'anyone'
        ? fc.constantFrom('anonymous', 'client', 'staff')
        : fc.oneof({ weight: 6, arbitrary: fc.constant(e.caller) }, fc.constantFrom(...others));
  const hasBody = method !== 'GET' && method !== 'DELETE';
  const body: fc.Arbitrary<(Body & { signature?: string }) | undefined> = !hasBody
    ? fc.constant(undefined)
    : (e.raw ?? jsonBody(e.fields ?? {}));
  // Now and then the caller's own address and user agent are hostile too (TRUST_PROXY is on).
  const client = fc.oneof(
    { weight: 15, arbitrary: fc.constant({}) },
    fc.record({ 'x-forwarded-for': nastyHeader, 'user-agent': nastyHeader }, { requiredKeys: [] }),
  );
  const headers = fc
    .record({
      client,
      route: fc.record(
        Object.fromEntries(
          Object.entries(e.headers ?? {}).map(([name, value]) => [
            name,
            fc.oneof({ weight: 4, arbitrary: value }, nastyHeader, fc.constant(undefined)),
          ]),
        ),
      ),
    })
    .map(
      ({ client: own, route }) =>
        Object.fromEntries(Object.entries({ ...own, ...route }).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >,
    );
  return fc
    .record({
      caller,
      bearer: fc.boolean(),
      params: fc.record(params),
      query: queryString(e.query),
      body,
      origin: fc.oneof(
        { weight: 18, arbitrary: fc.constant('same' as const) },
        fc.constantFrom('none' as const, 'cross' as const),
      ),
      headers,
    })
    .map(({ params: values, body: b, ...rest }) => {
      const { signature, ...plain } = b ?? { bytes: '' };
      return {
        ...rest,
        route: e.route,
        app: e.app ?? 'main',
        path: fillPath(pattern, values),
        body: b === undefined ? undefined : plain,
        headers: signature === undefined ? rest.headers : { ...rest.headers, 'stripe-signature': signature },
      };
    });
}

interface Tally {
  cases: number;
  byClass: Record<string, number>;
  rateLimited: number;
  crossSite: number;
  serverErrors: { requestId: string; logs: LogCapture; text: string }[];
}

/** What the server logged for a request: its error's message, or the log line's. */
function loggedError(logs: LogCapture, requestId: string): string {
  const line = logs.lines.find(
    (l) => (l.req as { id?: unknown } | undefined)?.id === requestId && Number(l.level) >= 50,
  );
  if (line === undefined) return 'nothing logged';
  const err = line.err as { type?: string; message?: string; stack?: string } | undefined;
  if (!err) return String(line.msg);
  const where = (err.stack ?? '').split('\n').find((frame) => frame.includes('/api/src/'));
  return `${err.type ?? 'Error'}: ${err.message ?? ''}${where ? ` (${where.trim()})` : ''}`;
}

function describeCase(c: FuzzCase, status: number | string): string {
  const body =
    c.body === undefined
      ? ''
      : typeof c.body.bytes === 'string'
        ? JSON.stringify(
            c.body.bytes.length > 300
              ? `${c.body.bytes.slice(0, 300)}… (${c.body.bytes.length} chars)`
              : c.body.bytes,
          )
        : `<${c.body.bytes.length} bytes>`;
  const url = c.path + c.query;
  const shown = url.length > 300 ? `${url.slice(0, 300)}… (${url.length} chars)` : url;
  const headers = Object.entries(c.headers).map(
    ([k, v]) => `${k}: ${v.length > 80 ? `${v.slice(0, 80)}…` : v}`,
  );
  if (c.origin !== 'same') headers.push(`origin: ${c.origin}`);
  if (c.body?.contentType !== undefined) headers.push(`content-type: ${c.body.contentType}`);
  const who = `${c.caller}${c.bearer && c.caller !== 'anonymous' ? ' (bearer)' : ''}`;
  return `${status} ${who} ${c.route.split(' ')[0]} ${shown} [${headers.join('; ')}] ${body}`;
}

describe.each(DIALECTS)('fuzzing every API route (%s)', (dialect: TestDialect) => {
  let f: Fixture;
  let standIn: StripeStandIn;
  let nothing: Server | undefined;
  const logs = { main: new LogCapture(), stripe: new LogCapture() };
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

  beforeAll(async () => {
    standIn = await new StripeStandIn().start();
    // The cloud providers' APIs aimed at a local server that has no files: a pick that passes every
    // check of ours gets the provider's 404, and nothing is sent to the internet.
    const empty = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404}}');
    });
    nothing = empty;
    await new Promise<void>((resolve) => empty.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(empty.address() as AddressInfo).port}`;
    const cloud = {
      GOOGLE_API_URL: closed,
      DROPBOX_API_URL: closed,
      DROPBOX_CONTENT_URL: closed,
      BOX_API_URL: closed,
      GRAPH_API_URL: `${closed}/v1.0`,
    };
    const main = await startTestApp({ dialect, env: { TRUST_PROXY: 'true', ...cloud }, logs: logs.main });
    const stripe = await startTestApp({
      dialect,
      env: { TRUST_PROXY: 'true', ...STRIPE_KEYS, STRIPE_API_URL: standIn.url },
      logs: logs.stripe,
    });
    await seeded(main);
    await seeded(stripe);

    const client = new TestBrowser(main.url);
    const registered = await client.post<{ user: { id: number } }>(
      '/api/auth/register',
      registration({ email: CLIENT_EMAIL }),
    );
    expect(registered.status).toBe(201);
    const { user: staff } = await upsertStaffAccount(main.db, {
      ...STAFF,
      firstName: 'Grace',
      lastName: 'Hopper',
    });

    const stores = await main.db.models.Store.findAll({ order: [['id', 'ASC']] });
    const products = await main.db.models.Product.findAll({ order: [['id', 'ASC']] });
    const exhibitor = new Exhibitor(main);
    const { body: demo } = await exhibitor.store();
    const cart = [{ productId: demo.store.products[0]!.id, count: 1 }];
    const created = await exhibitor.createIntent({ cart });
    expect(created.status).toBe(201);
    const { intent: paidOrder, paid } = await exhibitor.checkout(cart);
    expect(paid.status).toBe(200);

    const stripeExhibitor = new Exhibitor(stripe);
    const stripeIntent = await stripeExhibitor.createIntent({ cart });
    expect(stripeIntent.status).toBe(201);

    const sent = await client.post<{ submission: { id: string } }>('/api/uploads/submissions', {
      form_type: 'sponsor',
      event_name: 'Expo 2027',
      sponsor_company: 'Acme AV',
    });
    const sentFile = await client.post<{ file: { id: string } }>(
      `/api/uploads/submissions/${sent.body.submission.id}/files`,
      { name: 'notes.txt', size: 5, lastModified: 1 },
    );
    const part = await fetch(`${main.url}/api/uploads/files/${sentFile.body.file.id}/parts/1`, {
      method: 'PUT',
      headers: {
        cookie: client.cookieHeader() ?? '',
        origin: main.url,
        'content-type': 'application/octet-stream',
      },
      body: 'hello',
    });
    expect(part.status).toBe(200);
    expect((await client.post(`/api/uploads/files/${sentFile.body.file.id}/complete`, {})).status).toBe(200);
    expect((await client.post(`/api/uploads/submissions/${sent.body.submission.id}/submit`, {})).status).toBe(
      200,
    );
    const open = await client.post<{ submission: { id: string } }>('/api/uploads/submissions', {
      form_type: 'creative',
      project_name: 'Keynote',
    });
    const openFile = await client.post<{ file: { id: string } }>(
      `/api/uploads/submissions/${open.body.submission.id}/files`,
      { name: 'clip.mov', size: 5, lastModified: 2 },
    );
    expect(openFile.status).toBe(201);

    const { user: member } = await upsertStaffAccount(main.db, {
      email: 'mary@example.com',
      password: 'Staff passphrase 10',
      firstName: 'Mary',
      lastName: 'Jackson',
    });
    const actor = { userId: staff.id, ip: null };
    const invitation = await invite(main, actor, { email: 'katherine@example.com', roles: ['media'] });
    const uploadEvent = await createEvent(main.db, actor, {
      name: 'Fuzz Expo 2031',
      startsOn: '2031-03-03',
      endsOn: '2031-03-05',
      timeZone: 'America/New_York',
      deadline: '2031-03-01T17:00',
    });

    f = {
      main,
      stripe,
      clientId: registered.body.user.id,
      staffId: staff.id,
      storeIds: stores.map((s) => s.slug),
      demoStore: demo.store,
      storeKeys: stores.map((s) => String(s.id)),
      productIds: products.map((p) => p.id),
      order: created.body,
      paidOrder,
      stripeIntentIds: [stripeIntent.body.intentID],
      openSubmission: open.body.submission.id,
      openFile: openFile.body.file.id,
      sentSubmission: sent.body.submission.id,
      sentFile: sentFile.body.file.id,
      memberId: member.id,
      invitationId: invitation.id,
      uploadEventId: String(uploadEvent.id),
    };
  });

  afterAll(async () => {
    await f?.main.close();
    await f?.stripe.close();
    await standIn?.stop();
    nothing?.closeAllConnections();
    await new Promise((resolve) => (nothing ? nothing.close(resolve) : resolve(undefined)));
  });

  it('has a fuzz spec for every route the app registers', () => {
    const specified = endpoints(f).map((e) => e.route);
    expect(registeredRoutes(f.main.app).filter((route) => !specified.includes(route))).toEqual([]);
  });

  it(`answers no 5xx to ${RUNS} hostile requests (seed ${SEED})`, { timeout: 600_000 }, async () => {
    const tally: Tally = { cases: 0, byClass: {}, rateLimited: 0, crossSite: 0, serverErrors: [] };
    let counter = 0;

    const send = async (c: FuzzCase) => {
      const app = c.app === 'stripe' ? f.stripe : f.main;
      const n = ++counter;
      const requestId = `fuzz-${n}`;
      // TRUST_PROXY is on: each case comes from its own address, so per-IP limits rarely decide the answer.
      const headers: Record<string, string> = {
        accept: 'application/json',
        'x-request-id': requestId,
        'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        ...c.headers,
      };
      if (c.caller !== 'anonymous') {
        const { token } = await createSession(
          app.db,
          app.config,
          c.caller === 'staff' ? f.staffId : f.clientId,
          {
            ip: null,
            userAgent: null,
            via: c.bearer ? 'bearer' : 'cookie',
          },
        );
        if (c.bearer) headers.authorization = `Bearer ${token}`;
        else headers.cookie = `${sessionCookieName(app.config)}=${token}`;
      }
      if (c.origin === 'same') headers.origin = app.url;
      if (c.origin === 'cross') headers.origin = 'https://evil.example';
      if (c.body?.contentType !== undefined) headers['content-type'] = c.body.contentType;
      const [method = 'GET'] = c.route.split(' ');
      let status: number;
      let code: string | undefined;
      try {
        const res = await fetch(`${app.url}${c.path}${c.query}`, {
          method,
          headers,
          body: c.body === undefined ? undefined : (c.body.bytes as string | Uint8Array<ArrayBuffer>),
          signal: AbortSignal.timeout(60_000),
        });
        status = res.status;
        const text = await res.text();
        if (status === 403 || status === 429)
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
      } catch (error) {
        tally.serverErrors.push({
          requestId,
          logs: logs[c.app],
          text: describeCase(c, `no answer (${String(error)})`),
        });
        return;
      }
      tally.cases += 1;
      const kind = `${Math.floor(status / 100)}xx`;
      tally.byClass[kind] = (tally.byClass[kind] ?? 0) + 1;
      if (code === 'rate_limited') tally.rateLimited += 1;
      if (code === 'cross_site') tally.crossSite += 1;
      if (status >= 500)
        tally.serverErrors.push({ requestId, logs: logs[c.app], text: describeCase(c, status) });
    };

    await fc.assert(fc.asyncProperty(fc.oneof(...endpoints(f).map(caseOf)), send), {
      seed: SEED,
      numRuns: RUNS,
    });

    const classes = Object.entries(tally.byClass)
      .sort()
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    console.info(
      `fuzz ${dialect}: seed ${SEED}, ${tally.cases} cases (${classes}; 429 ${tally.rateLimited}, cross-site 403 ${tally.crossSite}), 5xx seen ${tally.serverErrors.length}`,
    );
    // Each answer's log line is written as it is sent, so by now every 5xx has its error logged.
    const serverErrors = tally.serverErrors.map(
      ({ requestId, logs: captured, text }) => `${text}\n      → ${loggedError(captured, requestId)}`,
    );
    expect(serverErrors, `server errors (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`).toEqual([]);
    expect(tally.cases).toBe(RUNS);
    // The handlers, not the limiters or the CSRF check, must have answered most cases.
    expect(tally.rateLimited + tally.crossSite).toBeLessThan(RUNS / 10);
  });

  it('still answers its health check, and nothing reached Object.prototype', async () => {
    expect((await f.main.request('/api/health')).status).toBe(200);
    expect((await f.stripe.request('/api/health')).status).toBe(200);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
