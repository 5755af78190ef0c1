// `npm start`: build what is missing or stale, then run the server (it migrates and seeds an empty database).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWeb, compileTypeScript, root, webIsStale } from './lib.mjs';

// tsc -b is incremental: when nothing changed it only compares timestamps.
compileTypeScript();
if (webIsStale()) {
  console.log('Building the web app…');
  buildWeb();
}
await import(pathToFileURL(join(root, 'api', 'dist', 'server.js')).href);
