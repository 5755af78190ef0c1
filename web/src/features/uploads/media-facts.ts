/**
 * A picked file's media facts (issue #30), read in at most MAX_READERS Web Workers at once
 * (media-facts.worker.ts), each file once: the form's file rows and the upload that follows ask for the
 * same answer. A file that cannot be read, a worker that breaks or one that does not answer in time give
 * facts null ("Could not read this file's details"), never an error; reading one file never waits on the
 * upload of another.
 */
import type { MediaFacts } from '@avp/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { coalescer, type Coalescer } from './coalesce';

export interface FactsRequest {
  id: number;
  file: File;
  timeoutMs?: number;
}

export interface FactsReply {
  id: number;
  facts: MediaFacts | null;
  bytesRead: number;
  ms: number;
}

export type FileFacts =
  { status: 'reading' } | { status: 'read'; facts: MediaFacts | null; bytesRead: number };

/** Two readers: a second file's facts come while a slow first one is read, without taxing a small laptop. */
export const MAX_READERS = 2;
/** The reader gives up after this long (facts null); the worker is ended if it has not answered soon after. */
export const READ_TIMEOUT_MS = 30_000;
const WATCHDOG_GRACE_MS = 5_000;

interface Job {
  id: number;
  file: File;
  resolve: (reply: FactsReply) => void;
}

interface Reader {
  worker: Worker;
  job: Job | null;
  watchdog: ReturnType<typeof setTimeout> | null;
}

function spawn(): Worker {
  return new Worker(new URL('./media-facts.worker.ts', import.meta.url), {
    type: 'module',
    name: 'media-facts',
  });
}

class FactsPool {
  private readonly readers: Reader[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  read(file: File): Promise<FactsReply> {
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, file, resolve });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let reader = this.readers.find((r) => r.job === null);
      if (!reader && this.readers.length < MAX_READERS) reader = this.start();
      if (!reader) return;
      this.give(reader, this.queue.shift()!);
    }
  }

  private start(): Reader | undefined {
    let worker: Worker;
    try {
      worker = spawn();
    } catch {
      // No workers here (or the page's policy forbids them): every file is "could not read".
      for (const job of this.queue.splice(0)) job.resolve({ id: job.id, facts: null, bytesRead: 0, ms: 0 });
      return undefined;
    }
    const reader: Reader = { worker, job: null, watchdog: null };
    worker.onmessage = (event: MessageEvent<FactsReply>) => {
      if (reader.job?.id === event.data.id) this.done(reader, event.data);
    };
    const broken = () => this.fail(reader);
    worker.onerror = (event) => {
      event.preventDefault();
      broken();
    };
    worker.onmessageerror = broken;
    this.readers.push(reader);
    return reader;
  }

  private give(reader: Reader, job: Job): void {
    reader.job = job;
    reader.watchdog = setTimeout(() => this.fail(reader), READ_TIMEOUT_MS + WATCHDOG_GRACE_MS);
    reader.worker.postMessage({
      id: job.id,
      file: job.file,
      timeoutMs: READ_TIMEOUT_MS,
    } satisfies FactsRequest);
  }

  private done(reader: Reader, reply: FactsReply): void {
    const job = reader.job;
    if (reader.watchdog) clearTimeout(reader.watchdog);
    reader.job = null;
    reader.watchdog = null;
    job?.resolve(reply);
    this.pump();
  }

  /** A worker that broke or hung: its file is unreadable, the worker is ended and replaced when needed. */
  private fail(reader: Reader): void {
    reader.worker.terminate();
    this.readers.splice(this.readers.indexOf(reader), 1);
    const job = reader.job;
    if (reader.watchdog) clearTimeout(reader.watchdog);
    job?.resolve({ id: job.id, facts: null, bytesRead: 0, ms: 0 });
    this.pump();
  }
}

type ReadFacts = FileFacts & { status: 'read' };

let pool: FactsPool | null = null;
const answers = new WeakMap<File, Promise<ReadFacts>>();
const settled = new WeakMap<File, ReadFacts>();

/** The file's facts, read once per File (the same promise for the row and for the upload). */
export function readFileFacts(file: File): Promise<ReadFacts> {
  let answer = answers.get(file);
  if (!answer) {
    if (typeof Worker === 'undefined') {
      answer = Promise.resolve({ status: 'read', facts: null, bytesRead: 0 });
    } else {
      pool ??= new FactsPool();
      answer = pool
        .read(file)
        .then((reply) => ({ status: 'read', facts: reply.facts, bytesRead: reply.bytesRead }));
    }
    answers.set(file, answer);
    void answer.then((read) => settled.set(file, read));
  }
  return answer;
}

/** The file's facts if they have been read already (nothing waits for them). */
export function factsIfRead(file: File): ReadFacts | undefined {
  return settled.get(file);
}

/** The time over which files' facts are gathered into one render. */
const FACTS_RENDER_GAP_MS = 50;

/** Each file's facts as known at a render: 'reading' until its answer is taken in. */
export interface FactsOf {
  get(file: File): FileFacts;
}

const READING: FileFacts = { status: 'reading' };

/**
 * The facts of each file as they come in ('reading' until then). Answers are gathered and taken in a
 * few times a second, and each costs what it changes (issue #34): 2,000 files picked at once answer
 * 2,000 times, and a pick is taken in slice by slice, so neither an answer nor a slice may go over every
 * file. The known facts only grow (a removed file's are kept, as readFileFacts keeps them per File).
 */
export function useFilesFacts(files: readonly File[]): FactsOf {
  // One map, grown in place: a new state object per batch tells React to render, without a copy.
  const [facts, setFacts] = useState(() => ({ known: new Map<File, ReadFacts>() }));
  const asking = useRef({
    asked: new WeakSet<File>(),
    arrived: [] as [File, ReadFacts][],
    flush: null as Coalescer | null,
  });
  useEffect(() => {
    const bag = asking.current;
    const flush = coalescer(() => {
      const batch = bag.arrived.splice(0);
      setFacts(({ known }) => {
        for (const [file, read] of batch) known.set(file, read);
        return { known };
      });
    }, FACTS_RENDER_GAP_MS);
    bag.flush = flush;
    // Answers taken while a former mount's flush was cancelled (React's strict mode mounts twice).
    if (bag.arrived.length > 0) flush.request();
    return () => {
      bag.flush = null;
      flush.cancel();
    };
  }, []);
  useEffect(() => {
    const bag = asking.current;
    const take = (file: File, read: ReadFacts) => {
      if (!bag.flush) return;
      bag.arrived.push([file, read]);
      bag.flush.request();
    };
    // A list grown by a slice adds its new files at the end: the files asked for before are skipped
    // at the cost of a lookup each.
    for (const file of files) {
      if (bag.asked.has(file)) continue;
      bag.asked.add(file);
      const done = settled.get(file);
      if (done) take(file, done);
      else void readFileFacts(file).then((read) => take(file, read));
    }
  }, [files]);
  // A new object per batch of facts, so that what depends on them (the form's check) runs again.
  return useMemo(() => ({ get: (file: File) => facts.known.get(file) ?? READING }), [facts]);
}
