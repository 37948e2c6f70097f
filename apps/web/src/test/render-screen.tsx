// Mounts screens as the app's router does (imported by *.test.tsx only).
import type { PublicConfig } from '@provee/domain';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Routes, type InitialEntry } from 'react-router';
import { ConfigContext } from '../shared/lib/config.js';
import { createPublicConfig } from './public-config.js';

/** `routes` (<Route> elements) opened at `url`, with the public configuration of a server. */
export function renderScreenAt(url: InitialEntry, routes: ReactNode, config: PublicConfig = createPublicConfig()) {
  return render(
    <ConfigContext value={config}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>{routes}</Routes>
      </MemoryRouter>
    </ConfigContext>,
  );
}
