import { afterEach, describe, expect, it } from 'vitest';
import type { SubmissionFileInstance, UserInstance } from '../src/db/models/index.js';
import { queueSubmissionMails } from '../src/modules/uploads/mail.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';

/** The e-mails a sent submission queues: the staff notice and the client's receipt read as English. */
let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const owner = { firstName: 'Ada', lastName: 'Lovelace', company: 'Engines', email: 'ada@example.com' };
const files = [{ name: 'keynote.mov', size: 1_234, sha256: 'ab'.repeat(32) }];

describe('upload mails', () => {
  it.each([
    ['creative', 'a creative asset'],
    ['event', 'an event asset'],
    ['sponsor', 'a sponsor commercial'],
  ])('the %s form: the staff notice says %j', async (formType, phrase) => {
    t = await openTestDatabase('sqlite');
    const db = t.db;
    await db.sequelize.transaction((transaction) =>
      queueSubmissionMails(
        { config: t!.config, db },
        {
          submission: { id: 'sub-1', formType, fields: {} },
          files: files as unknown as SubmissionFileInstance[],
          owner: owner as unknown as UserInstance,
        },
        transaction,
      ),
    );
    const [staff, receipt] = await db.models.MailOutbox.findAll({ order: [['id', 'ASC']] });
    expect(staff!.textBody).toContain(`Ada Lovelace (Engines) <ada@example.com> sent ${phrase} submission.`);
    expect(receipt!.textBody).toContain(
      `Thank you: we received your ${phrase.split(' ').slice(1).join(' ')} submission`,
    );
  });
});
