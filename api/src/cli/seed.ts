import { seedDemo } from '../db/seed-demo.js';
import { runCli } from './context.js';

const USAGE = `Usage: npm run seed:demo

Adds or refreshes the demo stores (demo-expo, demo-late, demo-inactive, demo-archived) and their products
and prices. Safe to run again.`;

await runCli(USAGE, async ({ config, db }) => {
  const result = await seedDemo(db, { timeZone: config.TZ_STORE });
  process.stdout.write(
    `Demo content: ${result.stores} stores, ${result.products} products, ${result.prices} prices ` +
      `(${result.changed === 0 ? 'already up to date' : `${result.changed} rows created or updated`}).\n`,
  );
});
