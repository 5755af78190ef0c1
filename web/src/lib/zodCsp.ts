/**
 * zod probes `new Function('')` when it builds its first object schema, to decide whether it may compile
 * fast parsers. Our Content-Security-Policy (script-src 'self') forbids eval, so the probe only produces a
 * CSP violation report (in the console, and in Lighthouse's best-practices audit). Telling zod up front to
 * run without eval skips the probe. Load code that builds schemas through `afterZodSetup` (lib/zodFirst.ts);
 * vite.config.ts keeps zod in a chunk of its own so that this module runs before any schema is built.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
