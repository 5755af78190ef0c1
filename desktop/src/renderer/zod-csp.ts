/**
 * zod probes `new Function('')` when it builds its first object schema; the app's CSP (script-src 'self')
 * forbids eval, so the probe would only log a CSP violation. Telling zod up front to run without eval
 * skips it. main.tsx imports this module first, before anything that builds a schema.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
