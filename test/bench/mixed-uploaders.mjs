// bench:mixed's uploaders, a process of their own (forked by mixed.mjs), so that their hashing and sending
// never delays the load generator's clock: N clients, each its own account, each sending one file after
// another through the shared upload client over the desktop engine's transport (bench:upload's contestant
// (c)), at full speed, until told to stop. Each completed file is removed again (an open submission's
// remove button), so the data folder holds at most one file per client.
//
// IPC: the parent sends { url, tokens, file, size, nice } to begin (nice: this process's OS priority); { type: 'read' } asks for every client's bytes
// sent so far (answered { type: 'bytes', at, bytes: [...] }); { type: 'stop' } ends the loops and answers
// { type: 'stopped' } once they have.
import { open } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { engineTransport, readNewBuffer, sharedUploadClient } from './contestants.mjs';

let stopping = false;
const sent = [];
/** Each client's file under way, removed on stop. */
const current = [];
const errors = [];

async function uploader(index, url, token, file, size) {
  const client = await sharedUploadClient(await engineTransport(url, token));
  const handle = await open(file, 'r');
  try {
    const submission = await client.createSubmission({
      form_type: 'creative',
      project_name: `Mixed ${index}`,
    });
    for (let round = 0; !stopping; round++) {
      const upload = client.file(submission.id, {
        // A new name each round: the same name, size and time would resume the file instead.
        name: `mixed-${index}-${round}.bin`,
        size,
        type: 'application/octet-stream',
        lastModified: Date.now(),
        read: readNewBuffer(handle),
      });
      current[index] = upload;
      const base = sent[index];
      const stopWatching = upload.onChange((u) => {
        sent[index] = base + u.progress().sentBytes;
      });
      upload.start();
      const outcome = await upload.settled();
      stopWatching();
      if (outcome.state === 'removed') return;
      if (outcome.state !== 'complete') {
        errors.push(`client ${index}: ${outcome.state} ${outcome.error?.message ?? ''}`);
        return;
      }
      sent[index] = base + size;
      await client.removeFile(outcome.file.id);
    }
  } finally {
    await handle.close();
  }
}

let loops;
process.on('message', (message) => {
  if (message.type === 'begin') {
    const { url, tokens, file, size, nice = 0 } = message;
    // Standing for remote machines: mixed.mjs may lower this process's priority (its header says why).
    if (nice > 0) setPriority(nice);
    tokens.forEach((_, i) => (sent[i] = 0));
    loops = Promise.all(
      tokens.map((token, i) =>
        uploader(i, url, token, file, size).catch((error) => errors.push(`client ${i}: ${error.message}`)),
      ),
    );
  } else if (message.type === 'read') {
    process.send({ type: 'bytes', at: performance.now(), bytes: [...sent], errors: [...errors] });
  } else if (message.type === 'stop') {
    stopping = true;
    for (const upload of current) void upload?.remove();
    void loops.then(() => process.send({ type: 'stopped', errors }));
  }
});
