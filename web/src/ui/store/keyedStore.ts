/**
 * The small keyed store of SPEC §3/§4: per name a piece of data, a message and its subscribers,
 * optionally persisted to localStorage. JSON has no Infinity, so infinite numbers are saved as the text
 * 'Infinity' (and '-Infinity') and read back as numbers, e.g. a price filter with 'Unlimited Max'.
 *
 * React reads it through useSyncExternalStore (useKeyedStore), so any number of components on any route
 * share one entry and re-render only when that entry changes.
 */
import { useCallback, useSyncExternalStore } from 'react';

export interface KeyedEntry<T = unknown> {
  readonly data: T | undefined;
  readonly message: string | undefined;
}

export interface KeyedStoreOptions {
  /** Where persistent names are saved (default: window.localStorage when there is one). */
  storage?: Storage | null;
  /** Prefix of the storage keys (default 'avp:'). */
  prefix?: string;
  /** Which names are persisted (default: none). */
  persist?: readonly string[] | ((name: string) => boolean);
}

export interface KeyedStore {
  get<T>(name: string): KeyedEntry<T>;
  setData<T>(name: string, data: T | ((previous: T | undefined) => T)): void;
  setMessage(name: string, message: string | undefined): void;
  /** Forgets the entry, and its saved copy. */
  clear(name: string): void;
  subscribe(name: string, listener: () => void): () => void;
}

const EMPTY: KeyedEntry<never> = Object.freeze({ data: undefined, message: undefined });

/** JSON.stringify replacer: ±Infinity become the texts 'Infinity' / '-Infinity'. */
export function infinityReplacer(_key: string, value: unknown): unknown {
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  return value;
}

/** JSON.parse reviver undoing infinityReplacer. */
export function infinityReviver(_key: string, value: unknown): unknown {
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  return value;
}

export function serialize(entry: KeyedEntry): string {
  return JSON.stringify(entry, infinityReplacer);
}

export function deserialize(text: string): KeyedEntry {
  const parsed: unknown = JSON.parse(text, infinityReviver);
  if (typeof parsed !== 'object' || parsed === null) return EMPTY;
  const { data, message } = parsed as { data?: unknown; message?: unknown };
  return { data, message: typeof message === 'string' ? message : undefined };
}

function defaultStorage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    // Storage can be blocked (privacy settings); the store then lives in memory only.
    return null;
  }
}

export function createKeyedStore(options: KeyedStoreOptions = {}): KeyedStore {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const prefix = options.prefix ?? 'avp:';
  const persist = options.persist ?? [];
  const isPersistent = typeof persist === 'function' ? persist : (name: string) => persist.includes(name);
  const entries = new Map<string, KeyedEntry>();
  const listeners = new Map<string, Set<() => void>>();

  function load(name: string): KeyedEntry {
    if (!storage || !isPersistent(name)) return EMPTY;
    try {
      const text = storage.getItem(prefix + name);
      return text === null ? EMPTY : deserialize(text);
    } catch {
      return EMPTY;
    }
  }

  function save(name: string, entry: KeyedEntry | undefined): void {
    if (!storage || !isPersistent(name)) return;
    try {
      if (entry) storage.setItem(prefix + name, serialize(entry));
      else storage.removeItem(prefix + name);
    } catch {
      // A full or blocked storage must not break the page; the entry still lives in memory.
    }
  }

  function get<T>(name: string): KeyedEntry<T> {
    let entry = entries.get(name);
    if (!entry) {
      entry = load(name);
      entries.set(name, entry);
    }
    return entry as KeyedEntry<T>;
  }

  function put(name: string, entry: KeyedEntry | undefined): void {
    if (entry) entries.set(name, entry);
    else entries.set(name, EMPTY);
    save(name, entry);
    for (const listener of [...(listeners.get(name) ?? [])]) listener();
  }

  return {
    get,
    setData<T>(name: string, data: T | ((previous: T | undefined) => T)) {
      const previous = get<T>(name);
      const next =
        typeof data === 'function' ? (data as (previous: T | undefined) => T)(previous.data) : data;
      put(name, { data: next, message: previous.message });
    },
    setMessage(name, message) {
      put(name, { data: get(name).data, message });
    },
    clear(name) {
      put(name, undefined);
    },
    subscribe(name, listener) {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
}

/** One entry of a store, and setters for its data and message. */
export function useKeyedStore<T>(store: KeyedStore, name: string) {
  const subscribe = useCallback((listener: () => void) => store.subscribe(name, listener), [store, name]);
  const getSnapshot = useCallback(() => store.get<T>(name), [store, name]);
  const entry = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  const setData = useCallback(
    (data: T | ((previous: T | undefined) => T)) => store.setData<T>(name, data),
    [store, name],
  );
  const setMessage = useCallback(
    (message: string | undefined) => store.setMessage(name, message),
    [store, name],
  );
  return { data: entry.data, message: entry.message, setData, setMessage };
}
