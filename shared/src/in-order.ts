/**
 * `work` on each of `items`, at most `limit` at a time, its answers in the items' order (a rejection of
 * any rejects the whole, once the ones under way have ended). For many small independent waits (a folder's
 * entries, a batch's stored files), each of which alone is a round trip to a disk or a service.
 */
export async function inOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const answers = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        answers[i] = await work(items[i]!, i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  const settled = await Promise.allSettled(workers);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  return answers;
}
