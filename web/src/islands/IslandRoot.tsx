import { StrictMode, useEffect } from 'react';
import type { ReactNode } from 'react';

/**
 * The root of every island, on the server (web/src/entry-server.tsx) and in the browser (islands/hydrate.tsx)
 * alike, so both render the same tree. `onHydrated` runs once the island is live.
 */
export function IslandRoot({ children, onHydrated }: { children: ReactNode; onHydrated?: () => void }) {
  useEffect(() => onHydrated?.(), [onHydrated]);
  return <StrictMode>{children}</StrictMode>;
}
