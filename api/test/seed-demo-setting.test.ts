import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start.js';
import { dropSchema, DIALECTS, tempDir, testEnv, writeWebDist } from './helpers/env.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(DIALECTS)('SEED_DEMO on %s', (dialect) => {
  it('false: an empty database stays empty of demo stores, and their page is not found', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const webDist = await writeWebDist(path.join(data.dir, 'web-dist'));
    const config = loadConfig(
      testEnv(path.join(data.dir, 'var'), dialect, { WEB_DIST_DIR: webDist, SEED_DEMO: 'false' }),
    );
    if (config.DB_SCHEMA) cleanups.push(() => dropSchema(config.DB_SCHEMA!));
    expect(config.SEED_DEMO).toBe(false);

    const running = await startServer(config, { port: 0, logger: createLogger({ LOG_LEVEL: 'silent' }) });
    cleanups.push(() => running.close());
    expect(await running.db.models.Store.count()).toBe(0);
    expect((await fetch(`${running.url}/api/stores/demo-expo`)).status).toBe(404);
  });
});
