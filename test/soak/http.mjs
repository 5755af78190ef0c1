// One person's HTTP, as a browser does it: a cookie jar, the Origin header on state-changing calls, JSON in
// and out, and a deadline on every call so a hung request is counted rather than waited on forever.
const SAFE = new Set(['GET', 'HEAD']);

export class Browser {
  constructor(baseUrl, { origin = baseUrl, timeoutMs = 120_000, tally } = {}) {
    this.baseUrl = baseUrl;
    this.origin = origin;
    this.timeoutMs = timeoutMs;
    this.cookies = new Map();
    /** Counts every call: (ok: boolean) → void; a call that did not end 2xx/3xx is one the caller retries. */
    this.tally = tally;
  }

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Resolves { status, body, headers } for any answer; status 0 with `error` when none came. */
  async call(method, path, body, headers = {}, raw = undefined) {
    const all = { accept: 'application/json', ...headers };
    if (this.cookies.size > 0) all.cookie = this.cookieHeader();
    if (!SAFE.has(method) && this.origin) all.origin = this.origin;
    if (body !== undefined) all['content-type'] = 'application/json';
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: all,
        body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (/max-age=0\b/i.test(line) || value === '') this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
      const text = await res.text();
      let parsed = text;
      if (res.headers.get('content-type')?.includes('json') && text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          // a cut-off body: left as text
        }
      }
      this.tally?.(res.status < 400);
      return { status: res.status, body: parsed, headers: res.headers };
    } catch (error) {
      this.tally?.(false);
      return { status: 0, body: undefined, error: describe(error) };
    }
  }

  get(path, headers) {
    return this.call('GET', path, undefined, headers);
  }

  post(path, body, headers) {
    return this.call('POST', path, body, headers);
  }

  put(path, body, headers) {
    return this.call('PUT', path, body, headers);
  }
}

export function describe(error) {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.code ?? error.cause.message}` : '';
  return `${error.name === 'TimeoutError' ? 'no answer within the deadline' : error.message}${cause}`;
}

/** Tries `fn` until it resolves truthy or `timeoutMs` passes; resolves the value or undefined. */
export async function until(fn, { timeoutMs, everyMs = 250, stop = () => false }) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() >= end || stop()) return undefined;
    await sleep(everyMs);
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
