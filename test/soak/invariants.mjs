// What must hold after a soak, read from the database, the S3 stand-in and the SMTP stand-in directly
// (never through the faulty paths): each check returns { name, ok, detail, failures: [evidence…] }.
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { streamSha256 } from './seeded-bytes.mjs';

const MAX_EVIDENCE = 12;

function check(name, failures, detail) {
  return {
    name,
    ok: failures.length === 0,
    detail,
    failures: failures.slice(0, MAX_EVIDENCE),
    broken: failures.length,
  };
}

/** Every completed upload: the server's sha-256, the row's and the stored object's equal the source's. */
export async function uploadsIntact({ db, schema, s3, bucket, record }) {
  const client = new S3Client({
    endpoint: s3,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const failures = [];
  const ids = record.uploads.map((u) => u.fileId).filter(Boolean);
  const rows = ids.length
    ? (
        await db.query(
          `SELECT id, status, sha256, storage_key, size FROM "${schema}".submission_files WHERE id = ANY($1)`,
          [ids],
        )
      ).rows
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  let checked = 0;
  let bytes = 0;
  for (const upload of record.uploads) {
    const row = upload.fileId ? byId.get(upload.fileId) : undefined;
    const clientSaysComplete = upload.state === 'complete';
    if (!clientSaysComplete && row?.status !== 'complete') continue;
    const source = await upload.sourceSha;
    const what = `${upload.name} (${upload.size} B, file ${upload.fileId})`;
    if (!row) {
      failures.push(`${what}: complete for the client, no row in submission_files`);
      continue;
    }
    if (row.status !== 'complete')
      failures.push(`${what}: complete for the client, ${row.status} in the database`);
    if (clientSaysComplete && upload.serverSha !== source)
      failures.push(`${what}: the server answered sha-256 ${upload.serverSha}, the source is ${source}`);
    if (row.sha256 !== source)
      failures.push(`${what}: the database holds sha-256 ${row.sha256}, the source is ${source}`);
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: row.storage_key }));
      const stored = await streamSha256(object.Body);
      if (stored.sha256 !== source || stored.bytes !== upload.size)
        failures.push(
          `${what}: the stored object (${stored.bytes} B) has sha-256 ${stored.sha256}, the source ${source}`,
        );
      bytes += stored.bytes;
    } catch (error) {
      failures.push(`${what}: the stored object ${row.storage_key} could not be read: ${error.message}`);
    }
    checked++;
  }
  // Not a broken invariant, but evidence for the report: files the client gave up on, and what S3 holds.
  const unfinished = [];
  for (const upload of record.uploads) {
    if (upload.state === 'complete') continue;
    const row = upload.fileId ? byId.get(upload.fileId) : undefined;
    let inS3 = 'no row';
    if (row) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: row.storage_key }));
        inS3 = `an object of ${head.ContentLength} B is in S3 at its key`;
      } catch (error) {
        inS3 = `no object in S3 at its key (${error.name})`;
      }
    }
    unfinished.push(
      `${upload.name} (${upload.size} B, file ${upload.fileId}): ${upload.state} for the client after ${upload.rounds} rounds, ` +
        `${row?.status ?? 'no row'} in the database; ${inS3}; last retry: ${upload.lastRetry ?? 'none'}`,
    );
  }
  record.unfinishedUploads = unfinished;
  client.destroy();
  return check(
    'every completed upload is stored intact (sha-256 of source = server answer = row = stored object)',
    failures,
    `${checked} files, ${(bytes / 1e6).toFixed(0)} MB read back`,
  );
}

/** Every paid order: captured = total, and exactly one confirmation mail, received once; none lost. */
export async function ordersPaidOnce({ db, schema, record, smtpIdsByAddress }) {
  const failures = [];
  const { rows: paid } = await db.query(
    `SELECT id, status, total, amount_received, email, gateway_intent_id FROM "${schema}".orders
      WHERE status IN ('paid', 'partially_refunded', 'refunded', 'needs_review')`,
  );
  const { rows: mails } = await db.query(`SELECT id, to_address FROM "${schema}".mail_outbox`);
  const mailsTo = new Map();
  for (const mail of mails) mailsTo.set(mail.to_address, [...(mailsTo.get(mail.to_address) ?? []), mail.id]);
  for (const order of paid) {
    const what = `order ${order.id} (${order.email})`;
    if (order.status === 'needs_review')
      failures.push(`${what}: held for staff review (needs_review) instead of paid`);
    if (Number(order.amount_received) !== Number(order.total))
      failures.push(`${what}: captured ${order.amount_received}, total ${order.total}`);
    const confirmations = mailsTo.get(order.email) ?? [];
    if (confirmations.length !== 1)
      failures.push(`${what}: ${confirmations.length} confirmation mails queued`);
    for (const id of confirmations) {
      const received = smtpIdsByAddress.get(order.email)?.filter((got) => got === id).length ?? 0;
      if (received !== 1) failures.push(`${what}: confirmation mail ${id} received ${received} times`);
    }
  }
  const paidIds = new Set(paid.map((order) => order.id));
  for (const order of record.orders) {
    if (order.captured && !paidIds.has(order.orderId))
      failures.push(
        `order ${order.orderId} (${order.email}): captured by Stripe (${order.how}), not paid in the database`,
      );
  }
  return check(
    'every paid order: captured = total, one confirmation mail received once; every captured payment paid',
    failures,
    `${paid.length} paid orders`,
  );
}

/** Every import the soak started is complete (with the source's sha-256) or failed with a message. */
export async function importsSettled({ db, schema, record }) {
  const failures = [];
  const { rows } = await db.query(
    `SELECT i.file_id, i.status, i.error, i.attempts, i.bytes_done, i.next_attempt_at, i.lease_expires_at,
            i.updated_at, f.sha256, f.size FROM "${schema}".file_imports i
       JOIN "${schema}".submission_files f ON f.id = i.file_id`,
  );
  const byId = new Map(rows.map((row) => [row.file_id, row]));
  let complete = 0;
  let failed = 0;
  for (const row of rows) {
    if (row.status === 'queued' || row.status === 'running') {
      const now = Date.now();
      const due = Number(row.next_attempt_at) - now;
      const lease =
        row.lease_expires_at === null
          ? 'no lease'
          : `lease ${((Number(row.lease_expires_at) - now) / 1000).toFixed(0)} s from now`;
      failures.push(
        `import of file ${row.file_id}: still ${row.status} after the drain (attempts ${row.attempts}, ` +
          `${row.bytes_done} of ${row.size} B, next attempt ${(due / 1000).toFixed(0)} s from now, ${lease}, ` +
          `last touched ${row.updated_at.toISOString()}, error ${JSON.stringify(row.error)})`,
      );
    }
    if ((row.status === 'failed' || row.status === 'needs_auth') && !String(row.error ?? '').trim())
      failures.push(`import of file ${row.file_id}: ${row.status} without a message`);
    if (row.status === 'failed' || row.status === 'needs_auth') failed++;
  }
  for (const entry of record.imports) {
    if (!entry.fileId) continue;
    const row = byId.get(entry.fileId);
    if (!row) {
      failures.push(`import ${entry.id}: started (file ${entry.fileId}), no row`);
      continue;
    }
    if (row.status === 'complete') {
      complete++;
      const source = await entry.sourceSha;
      if (row.sha256 !== source)
        failures.push(
          `import ${entry.id} (file ${entry.fileId}, ${entry.size} B): stored sha-256 ${row.sha256}, source ${source}`,
        );
    }
  }
  return check(
    'every import finished (intact) or failed with a message; none stuck',
    failures,
    `${rows.length} imports: ${complete} complete, ${failed} failed`,
  );
}

/** Every queued mail sent, and received by the SMTP stand-in exactly once. */
export async function mailOnce({ db, schema, receivedIds }) {
  const failures = [];
  const { rows } = await db.query(
    `SELECT id, status, attempts, last_error, claimed_by, claimed_at, subject FROM "${schema}".mail_outbox ORDER BY id`,
  );
  const counts = new Map();
  for (const id of receivedIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const row of rows) {
    const id = Number(row.id);
    const got = counts.get(id) ?? 0;
    if (row.status !== 'sent')
      failures.push(
        `mail ${id} ("${row.subject}"): ${row.status} after the drain (attempts ${row.attempts}, ` +
          `${row.last_error ?? 'no error'}${row.claimed_at ? `, claimed by ${row.claimed_by} at ${row.claimed_at.toISOString()}` : ''})`,
      );
    if (got !== 1) failures.push(`mail ${id}: received ${got} times`);
  }
  const known = new Set(rows.map((row) => Number(row.id)));
  for (const id of counts.keys())
    if (!known.has(id)) failures.push(`a mail with outbox id ${id} was received, no such row`);
  return check(
    'every queued mail delivered exactly once',
    failures,
    `${rows.length} mails, ${receivedIds.length} received`,
  );
}
