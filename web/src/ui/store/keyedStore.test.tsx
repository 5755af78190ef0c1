import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  createKeyedStore,
  deserialize,
  infinityReplacer,
  infinityReviver,
  serialize,
  useKeyedStore,
} from './keyedStore';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}

describe('keyed store (SPEC §3/§4): data, message and subscriptions per name', () => {
  it('keeps data and a message per name', () => {
    const store = createKeyedStore({ storage: null });
    expect(store.get('cart')).toEqual({ data: undefined, message: undefined });
    store.setData('cart', [{ id: 1, count: 2 }]);
    store.setMessage('cart', 'Saved');
    store.setData('filter', 'abc');
    expect(store.get('cart')).toEqual({ data: [{ id: 1, count: 2 }], message: 'Saved' });
    expect(store.get('filter')).toEqual({ data: 'abc', message: undefined });
    store.setData<number>('n', 1);
    store.setData<number>('n', (previous) => (previous ?? 0) + 1);
    expect(store.get('n').data).toBe(2);
  });

  it('tells only the subscribers of the changed name, until they unsubscribe', () => {
    const store = createKeyedStore({ storage: null });
    const cart = vi.fn();
    const other = vi.fn();
    const stop = store.subscribe('cart', cart);
    store.subscribe('other', other);
    store.setData('cart', 1);
    store.setMessage('cart', 'hi');
    expect(cart).toHaveBeenCalledTimes(2);
    expect(other).not.toHaveBeenCalled();
    stop();
    store.setData('cart', 2);
    expect(cart).toHaveBeenCalledTimes(2);
  });

  it('persists only the names asked for, with infinity saved as the text Infinity', () => {
    const storage = memoryStorage();
    const store = createKeyedStore({ storage, persist: ['budget'] });
    store.setData('budget', [10, Infinity]);
    store.setData('scratch', 5);
    expect(storage.getItem('avp:budget')).toBe('{"data":[10,"Infinity"]}');
    expect(storage.getItem('avp:scratch')).toBeNull();

    const reopened = createKeyedStore({ storage, persist: (name) => name === 'budget' });
    expect(reopened.get('budget').data).toEqual([10, Infinity]);
    reopened.clear('budget');
    expect(storage.getItem('avp:budget')).toBeNull();
  });

  it('saves the message too and uses the prefix given', () => {
    const storage = memoryStorage();
    const store = createKeyedStore({ storage, persist: ['x'], prefix: 'test:' });
    store.setMessage('x', 'Loading…');
    expect(deserialize(storage.getItem('test:x') ?? '')).toEqual({ data: undefined, message: 'Loading…' });
  });

  it('survives unreadable or failing storage', () => {
    const storage = memoryStorage();
    storage.setItem('avp:bad', '{not json');
    const store = createKeyedStore({ storage, persist: ['bad', 'full'] });
    expect(store.get('bad')).toEqual({ data: undefined, message: undefined });
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    store.setData('full', 1);
    expect(store.get('full').data).toBe(1);
  });

  it.each([
    [Infinity, '"Infinity"'],
    [-Infinity, '"-Infinity"'],
    [{ max: Infinity, min: 0 }, '{"max":"Infinity","min":0}'],
  ])('JSON: %j is written as %s and read back', (value, text) => {
    expect(JSON.stringify(value, infinityReplacer)).toBe(text);
    expect(JSON.parse(text, infinityReviver)).toEqual(value);
  });

  it('serialize / deserialize an entry', () => {
    expect(deserialize(serialize({ data: { max: Infinity }, message: 'ok' }))).toEqual({
      data: { max: Infinity },
      message: 'ok',
    });
    expect(deserialize('42')).toEqual({ data: undefined, message: undefined });
  });
});

describe('useKeyedStore', () => {
  it('shares one entry between components and re-renders them on change', () => {
    const store = createKeyedStore({ storage: null });
    function Reader({ testId }: { testId: string }) {
      const { data, message } = useKeyedStore<number>(store, 'count');
      return <output data-testid={testId}>{`${data ?? 'none'} ${message ?? ''}`.trim()}</output>;
    }
    render(
      <>
        <Reader testId="a" />
        <Reader testId="b" />
      </>,
    );
    expect(screen.getByTestId('a').textContent).toBe('none');
    act(() => store.setData('count', 3));
    expect(screen.getByTestId('a').textContent).toBe('3');
    expect(screen.getByTestId('b').textContent).toBe('3');
    act(() => store.setMessage('count', 'three'));
    expect(screen.getByTestId('b').textContent).toBe('3 three');
  });
});
