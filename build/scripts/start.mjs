// `npm start`: build what is missing or stale, then run the server (it migrates and seeds an empty database).
import { join } from 'node:path';
import { buildWeb, compileTypeScript, root, SERVER_NODE_FLAGS, webIsStale } from './lib.mjs';
import { runServer } from './run-server.mjs';

// tsc -b is incremental: when nothing changed it only compares timestamps.
compileTypeScript();
if (webIsStale()) {
  console.log('Building the web app…');
  buildWeb();
}
// A process of its own, for the node flags the server runs with (run-server.mjs: which signals it relays).
runServer([...SERVER_NODE_FLAGS, join(root, 'api', 'dist', 'server.js')]);
