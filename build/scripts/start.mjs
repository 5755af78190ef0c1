// `npm start`: build what is missing or stale, then run the server (it migrates and seeds an empty database).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildWeb, compileTypeScript, root, SERVER_NODE_FLAGS, webIsStale } from './lib.mjs';

// tsc -b is incremental: when nothing changed it only compares timestamps.
compileTypeScript();
if (webIsStale()) {
  console.log('Building the web app…');
  buildWeb();
}
// A process of its own, for the node flags the server runs with; signals go to it and its exit is ours.
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(root, 'api', 'dist', 'server.js')], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
