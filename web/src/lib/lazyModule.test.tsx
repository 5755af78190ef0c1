import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyModule, preloadModules } from './lazyModule';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('lazyModule', () => {
  it('suspends until its module arrives, then renders it', async () => {
    const gate = deferred();
    const Hello = lazyModule('test/Hello.tsx', async () => {
      await gate.promise;
      return { default: ({ name }: { name: string }) => <p>Hello {name}</p> };
    });
    await act(async () => {
      render(
        <Suspense fallback={<p>Loading</p>}>
          <Hello name="Ada" />
        </Suspense>,
      );
    });
    expect(screen.getByText('Loading')).toBeTruthy();
    await act(async () => {
      gate.resolve();
      await Hello.preload();
    });
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
  });

  it('renders at once, without a fallback, once preloaded by id', async () => {
    const Ready = lazyModule('test/Ready.tsx', async () => ({ default: () => <p>Ready</p> }));
    await preloadModules(['test/Ready.tsx', 'test/unknown.tsx']);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Ready />
      </Suspense>,
    );
    expect(screen.queryByText('Loading')).toBeNull();
    expect(screen.getByText('Ready')).toBeTruthy();
  });

  it('tries again after a failed load', async () => {
    let attempts = 0;
    const Flaky = lazyModule('test/Flaky.tsx', async () => {
      attempts++;
      if (attempts === 1) throw new Error('offline');
      return { default: () => <p>Back</p> };
    });
    await expect(Flaky.preload()).rejects.toThrow('offline');
    await Flaky.preload();
    expect(attempts).toBe(2);
  });
});
