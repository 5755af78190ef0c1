/**
 * Shares reads among concurrent callers without ever answering a caller with a read that began before its
 * call. A read under way may have started before a change the caller has to see, so a caller that finds
 * one running waits for the next, which starts when it ends and is shared by everyone arriving meanwhile.
 * Under load that is one read per key at a time, however many callers.
 */
export function freshReads<V>(read: (key: string) => Promise<V>): (key: string) => Promise<V> {
  const reads = new Map<string, { running: Promise<V>; next?: Promise<V> }>();

  const start = (key: string): Promise<V> => {
    const entry: { running: Promise<V>; next?: Promise<V> } = { running: read(key) };
    reads.set(key, entry);
    const done = () => {
      if (reads.get(key) === entry && entry.next === undefined) reads.delete(key);
    };
    entry.running.then(done, done);
    return entry.running;
  };

  return (key) => {
    const entry = reads.get(key);
    if (entry === undefined) return start(key);
    entry.next ??= entry.running.then(
      () => start(key),
      () => start(key),
    );
    return entry.next;
  };
}
