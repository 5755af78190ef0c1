// The server as `npm start` runs it: a child process of its own (for the node flags it runs with), whose
// exit is the launcher's.
import { spawn } from 'node:child_process';

/**
 * Runs `node <args>` and relays what only the launcher receives. Ctrl-C at a terminal sends SIGINT to the
 * whole foreground process group, the server included (it shares the launcher's group and terminal), and
 * npm passes it on to the launcher too: forwarding it as well would be the server's second signal, which
 * it takes as 'exit without waiting', so a graceful shutdown would never run. So SIGINT is left to the
 * terminal, and the launcher only waits; SIGTERM and SIGHUP, which a process manager or `kill` sends to
 * the launcher alone, are passed on once each.
 */
export function runServer(args, options = {}) {
  const server = spawn(process.execPath, args, { stdio: 'inherit', ...options });
  process.on('SIGINT', () => {
    // The server got the same SIGINT from the terminal; a second Ctrl-C reaches it the same way.
  });
  for (const signal of ['SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (server.exitCode === null && server.signalCode === null) server.kill(signal);
    });
  }
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return server;
}
