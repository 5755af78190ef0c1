import { afterEach, describe, expect, it } from 'vitest';
import { UNMATCHED_ROUTE } from '../src/http/route-pattern.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { LogCapture } from './helpers/env.js';

/**
 * A path whose parameter is a malformed escape (%ZZ, a lone surrogate's bytes) is refused like any bad
 * path, and the request line that names every request's route pattern (logs and metrics) is still written:
 * matching routes decodes parameters, which throws URIError, and that ran after the answer, outside every
 * handler, where a throw would end the process (found by the fuzz test).
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a path parameter that is not a valid escape', () => {
  it('is answered, logged as an unmatched route, and the server goes on', async () => {
    const logs = new LogCapture();
    t = await startTestApp({ logs });
    for (const path of ['/api/stores/%ZZ', '/api/uploads/files/%ED%A0%80']) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const id = res.headers.get('x-request-id');
      const until = Date.now() + 5_000;
      let line: Record<string, unknown> | undefined;
      while (!(line = logs.lines.find((l) => l.reqId === id && l.res !== undefined))) {
        if (Date.now() > until) throw new Error(`no request line for ${path}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(line.route).toBe(UNMATCHED_ROUTE);
    }
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });
});
