import type { PublicConfig } from '@provee/domain';
import { StrictMode, type ReactNode } from 'react';
import { ConfigContext } from '../shared/lib/config.js';

/** What wraps every screen, in the browser and in the server's prerender alike (same tree, so hydration matches). */
export function AppProviders({ config, children }: { config: PublicConfig; children: ReactNode }) {
  return (
    <StrictMode>
      <ConfigContext value={config}>{children}</ConfigContext>
    </StrictMode>
  );
}
