/**
 * A tiny stand-in for one browser talking to a test app over HTTP: it keeps the session cookie the
 * server sets (honouring Max-Age=0 / past Expires as deletion), and sends an Origin header naming the app
 * on state-changing requests, as browsers do. Nothing of the app is mocked: requests go over the socket.
 */
export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  setCookies: string[];
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export class TestBrowser {
  /** name=value pairs the server set and did not delete. */
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly origin: string | null = baseUrl,
  ) {}

  cookieHeader(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<CallResult<T>> {
    const all: Record<string, string> = { accept: 'application/json', ...headers };
    const cookie = this.cookieHeader();
    if (cookie !== undefined && all.cookie === undefined) all.cookie = cookie;
    if (!SAFE.has(method) && this.origin !== null && all.origin === undefined) all.origin = this.origin;
    if (body !== undefined) all['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: all,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) this.rememberCookie(line);
    const text = await res.text();
    // JSON answers are parsed; anything else (a CSV export, say) is handed over as text.
    const json = res.headers.get('content-type')?.includes('json') ?? true;
    const parsed = text === '' ? undefined : json ? (JSON.parse(text) as T) : (text as T);
    return { status: res.status, body: parsed as T, headers: res.headers, setCookies };
  }

  get<T = Record<string, unknown>>(path: string, headers?: Record<string, string>) {
    return this.call<T>('GET', path, undefined, headers);
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.call<T>('POST', path, body, headers);
  }

  put<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.call<T>('PUT', path, body, headers);
  }

  private rememberCookie(line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const deleted =
      value === '' ||
      attributes.some((a) => {
        const [key = '', val = ''] = a.split('=');
        const k = key.trim().toLowerCase();
        if (k === 'max-age') return Number(val) <= 0;
        if (k === 'expires') return new Date(val.trim()).getTime() <= Date.now();
        return false;
      });
    if (deleted) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** A valid registration body; override what a test is about. */
export function registration(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: 'ada@example.com',
    firstname: 'Ada',
    lastname: 'Lovelace',
    company: 'Analytical Engines Ltd',
    phone: '(555) 123-4567',
    password: 'Difference Engine 1843',
    confirmPassword: 'Difference Engine 1843',
    ...overrides,
  };
}
