/** Wraps a dynamic import of code that builds zod schemas: zod is set up for our CSP first (lib/zodCsp.ts). */
export function afterZodSetup<T>(load: () => Promise<T>): () => Promise<T> {
  return () => import('./zodCsp').then(load);
}
