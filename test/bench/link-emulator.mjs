// A slow, distant link for benchmarks, as a TCP proxy: loopback has neither round trips nor a rate, and an
// upload protocol's worth shows in how it copes with both. Linux's netem would be the usual tool, but it
// needs privileges a developer's machine or a CI runner may not give, so this is plain node:net.
//
// Every connection through one proxy shares one link. Per direction, each connection queues what it sends,
// the link takes the queues in turn at its rate (a token bucket with no burst: a wire left idle cannot
// catch up later), and a chunk arrives the one-way delay after it left. The queue is bounded (one
// bandwidth-delay product by default, split between the connections queueing): a connection past its
// share has its socket paused, so TCP's own flow control pushes back on the sender as a full router queue
// would, and no sender sees more than the link's rate. A receiver that does not read pauses its
// connection's sender alone. A connection's first bytes wait one round trip, for the handshake a real
// link would need; FINs travel with the delay, in order after the data.
//
// Not modelled: loss and TCP's congestion control (slow start, recovery), and the sizes of the kernel's
// socket buffers between the sender and this proxy, which Node cannot set: a sender keeps about 4 MB in
// them, mostly its own send buffer, as it would on a real link. Neither hides a round trip: a request
// still needs its last byte across the link and its answer back.
//
// In process: startLink({ target, mbit, rttMs }). In a process of its own, so that a client's busy event
// loop in the bench cannot stall the link: startLinkProcess with the same options.
import { fork } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Bytes the link takes from one connection before it turns to the next: fairness at this grain. */
const QUANTUM = 16 * 1024;

/**
 * One direction of the link, shared by every connection: a queue per connection, served in turn at the
 * link's rate (Linux's default fq_codel shares a link between flows alike, and TCP senders left to
 * themselves end up near a fair share as well), then the one-way delay.
 */
class Direction {
  constructor({ bytesPerMs, delayMs, queueBytes, now }) {
    this.bytesPerMs = bytesPerMs;
    this.delayMs = delayMs;
    this.queueBytes = queueBytes;
    this.now = now;
    /** Connection to its flow: { conn, items, queued, full }; items are chunks, null for a FIN. */
    this.flows = new Map();
    /** Flows with something queued, in the order the link serves them. */
    this.ring = [];
    this.queued = 0;
    /** When the link has sent everything it has taken: a virtual clock, so late timers lose no time. */
    this.freeAt = 0;
    /** { at, conn, chunk } in the order they left, which is the order they arrive. */
    this.wire = [];
    this.wireHead = 0;
    this.sendTimer = null;
    this.deliverTimer = null;
    this.stats = { bytes: 0, peakQueuedBytes: 0, pauses: 0 };
  }

  flow(conn) {
    let flow = this.flows.get(conn);
    if (flow === undefined) {
      flow = { conn, items: [], queued: 0, full: false };
      this.flows.set(conn, flow);
    }
    return flow;
  }

  /** What one connection may queue while others queue too: the queue split between them. */
  share() {
    return this.queueBytes / Math.max(1, this.ring.length);
  }

  /** Whether this connection's sender must wait for its queue to drain. */
  isFull(conn) {
    return this.flows.get(conn)?.full ?? false;
  }

  /** A chunk (null: the sender's FIN) arrives from a connection's sender. */
  send(conn, chunk) {
    const flow = this.flow(conn);
    // An idle link starts sending now, not at some time it was idle.
    if (this.queued === 0 && this.ring.length === 0) this.freeAt = Math.max(this.freeAt, this.now());
    if (flow.items.length === 0) this.ring.push(flow);
    if (chunk === null) {
      flow.items.push(null);
    } else {
      for (let at = 0; at < chunk.length; at += QUANTUM) {
        flow.items.push(chunk.subarray(at, Math.min(chunk.length, at + QUANTUM)));
      }
      flow.queued += chunk.length;
      this.queued += chunk.length;
      this.stats.peakQueuedBytes = Math.max(this.stats.peakQueuedBytes, this.queued);
    }
    if (!flow.full && flow.queued >= this.share()) {
      flow.full = true;
      this.stats.pauses++;
      conn.update();
    }
    this.pump();
  }

  /** Puts on the wire what the link has had time to send by now, a quantum per connection in turn. */
  pump() {
    const now = this.now();
    while (this.ring.length > 0 && this.freeAt <= now) {
      const flow = this.ring.shift();
      const chunk = flow.items.shift();
      if (chunk !== null) {
        this.freeAt += chunk.length / this.bytesPerMs;
        flow.queued -= chunk.length;
        this.queued -= chunk.length;
      }
      this.wire.push({ at: this.freeAt + this.delayMs, conn: flow.conn, chunk });
      if (flow.items.length > 0) this.ring.push(flow);
    }
    // Some room again before a sender resumes, so that it does not flap on every quantum.
    const share = this.share();
    for (const flow of this.flows.values()) {
      if (flow.full && flow.queued <= share / 2) {
        flow.full = false;
        flow.conn.update();
      }
    }
    if (this.ring.length > 0 && this.sendTimer === null) {
      this.sendTimer = setTimeout(
        () => {
          this.sendTimer = null;
          this.pump();
        },
        Math.max(0, this.freeAt - now),
      );
    }
    this.armDelivery();
  }

  armDelivery() {
    if (this.deliverTimer !== null || this.wireHead >= this.wire.length) return;
    const wait = Math.max(0, this.wire[this.wireHead].at - this.now());
    this.deliverTimer = setTimeout(() => {
      this.deliverTimer = null;
      this.deliver();
    }, wait);
  }

  deliver() {
    const now = this.now();
    while (this.wireHead < this.wire.length && this.wire[this.wireHead].at <= now) {
      const { conn, chunk } = this.wire[this.wireHead++];
      if (chunk !== null) this.stats.bytes += chunk.length;
      conn.arrived(this, chunk);
    }
    // Compacted now and then rather than shifted on every delivery.
    if (this.wireHead > 1024 && this.wireHead * 2 > this.wire.length) {
      this.wire = this.wire.slice(this.wireHead);
      this.wireHead = 0;
    }
    this.armDelivery();
  }

  /** A connection gone: what it had queued is dropped (what is on the wire finds it dead). */
  drop(conn) {
    const flow = this.flows.get(conn);
    if (flow === undefined) return;
    this.flows.delete(conn);
    this.queued -= flow.queued;
    const at = this.ring.indexOf(flow);
    if (at >= 0) this.ring.splice(at, 1);
  }

  close() {
    for (const timer of [this.sendTimer, this.deliverTimer]) if (timer !== null) clearTimeout(timer);
    this.sendTimer = null;
    this.deliverTimer = null;
    this.flows.clear();
    this.ring = [];
    this.wire = [];
    this.wireHead = 0;
  }
}

/** One proxied connection: the client's socket, the target's, and the link's two directions. */
class Connection {
  constructor(client, target, up, down, handshakeMs, onClosed) {
    this.client = client;
    this.target = target;
    this.up = up;
    this.down = down;
    this.handshaking = true;
    this.dead = false;
    this.onClosed = onClosed;
    // A receiver with bytes it has not taken yet: its sender waits for it alone.
    this.blocked = { client: false, target: false };
    client.pause();
    target.pause();
    this.handshake = setTimeout(() => {
      this.handshaking = false;
      this.update();
    }, handshakeMs);
    client.on('data', (chunk) => up.send(this, chunk));
    target.on('data', (chunk) => down.send(this, chunk));
    client.on('end', () => up.send(this, null));
    target.on('end', () => down.send(this, null));
    for (const [socket, other] of [
      [client, target],
      [target, client],
    ]) {
      socket.on('error', () => this.kill(other));
      socket.on('close', () => {
        if (client.destroyed && target.destroyed) this.finish();
      });
    }
    for (const side of ['client', 'target']) {
      this[side].on('drain', () => {
        this.blocked[side] = false;
        this.update();
      });
    }
  }

  /** Pauses or resumes each sender from its flow's queue and its receiver. */
  update() {
    if (this.dead) return;
    const sets = [
      [this.client, this.handshaking || this.up.isFull(this) || this.blocked.target],
      [this.target, this.handshaking || this.down.isFull(this) || this.blocked.client],
    ];
    for (const [socket, paused] of sets) {
      if (paused && !socket.isPaused()) socket.pause();
      else if (!paused && socket.isPaused()) socket.resume();
    }
  }

  /** A chunk (null: the FIN) has crossed the link. */
  arrived(direction, chunk) {
    if (this.dead) return;
    const side = direction === this.up ? 'target' : 'client';
    if (chunk === null) {
      this[side].end();
    } else if (!this[side].write(chunk)) {
      this.blocked[side] = true;
      this.update();
    }
  }

  /** A reset: the other side is cut at once (a real RST is delayed too, but nothing here needs that). */
  kill(other) {
    other.destroy();
    this.finish();
  }

  finish() {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.handshake);
    this.client.destroy();
    this.target.destroy();
    this.up.drop(this);
    this.down.drop(this);
    this.onClosed(this);
  }
}

/**
 * A link in front of `target` ({ host, port }, or a port on 127.0.0.1): `mbit` megabits a second each way,
 * `rttMs` round trip (half each way), `queueBytes` of queue per direction beyond what is on the wire (one
 * bandwidth-delay product by default, the classic router buffer, so a full queue adds one round trip).
 * Resolves to { port, url, close, stats } once listening on 127.0.0.1.
 */
export async function startLink({ target, mbit, rttMs, queueBytes, host = '127.0.0.1' }) {
  const to = typeof target === 'number' ? { host: '127.0.0.1', port: target } : target;
  const bytesPerMs = (mbit * 1e6) / 8 / 1000;
  const queue = queueBytes ?? Math.max(bytesPerMs * rttMs, 64 * 1024);
  const now = () => performance.now();
  const up = new Direction({ bytesPerMs, delayMs: rttMs / 2, queueBytes: queue, now });
  const down = new Direction({ bytesPerMs, delayMs: rttMs / 2, queueBytes: queue, now });
  const open = new Set();
  let connections = 0;
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    connections++;
    const upstream = connect({ ...to, allowHalfOpen: true, noDelay: true });
    open.add(new Connection(client, upstream, up, down, rttMs, (c) => open.delete(c)));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address();
  return {
    port,
    url: `http://${host}:${port}`,
    /** Bytes delivered each way, the most queued at once, how often a sender was paused, connections. */
    stats: () => ({ up: { ...up.stats }, down: { ...down.stats }, connections, open: open.size }),
    close: () =>
      new Promise((resolve) => {
        for (const c of [...open]) c.finish();
        up.close();
        down.close();
        server.close(() => resolve());
      }),
  };
}

/**
 * The same link in a child process of its own; stats() then resolves (it asks the child). The options
 * travel as JSON.
 */
export async function startLinkProcess(options) {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, LINK_EMULATOR: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = [];
  const started = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the link emulator exited with code ${code}`)));
    child.once('message', resolve);
  });
  child.removeAllListeners('exit');
  child.on('message', (message) => replies.shift()?.resolve(message));
  child.on('exit', (code) => {
    for (const { reject } of replies.splice(0)) reject(new Error(`the link emulator exited with ${code}`));
  });
  return {
    port: started.port,
    url: started.url,
    child,
    stats: () =>
      new Promise((resolve, reject) => {
        replies.push({ resolve, reject });
        child.send('stats');
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

if (process.env.LINK_EMULATOR && process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const link = await startLink(JSON.parse(process.env.LINK_EMULATOR));
  process.on('message', async (message) => {
    if (message === 'stats') process.send(link.stats());
    if (message === 'close') {
      await link.close();
      process.disconnect();
    }
  });
  // The bench is gone (killed, crashed): so is its link.
  process.on('disconnect', () => process.exit(0));
  process.send({ port: link.port, url: link.url });
}
