import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';

/**
 * Server state for every page. A failure is shown at once with its retry button (DESIGN deviation 5), so
 * queries do not retry by themselves; and a page refetches when it mounts, not when the window regains
 * focus, which would redraw a form the user is filling in.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** One client per app (per render on the server), so prerendered pages never share cached answers. */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
