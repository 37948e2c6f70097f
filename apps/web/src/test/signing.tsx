// Test helpers of the signing screens (imported by *.test.tsx only).
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ConfigContext } from '../shared/lib/config.js';
import { json, Where } from './fetch-stub.js';
import { createPublicConfig } from './public-config.js';
import type { SigningLink } from '../features/signing/api/signing.js';

export const USER_ID = '3f0c1d9e-8a55-4a57-9a8e-1e2b3c4d5e6f';
export const TOKEN = 'link-token-1';

/** A signing link as GET …/contract-link answers it; any field can be changed. */
export function createSigningLink(overrides: Partial<SigningLink> = {}): SigningLink {
  return {
    user_id: USER_ID,
    user_type_id: 'SK',
    person_type: 'titular',
    signer_name: 'Juana Gómez Núñez',
    titular_full_name: 'Juana Gómez Núñez',
    collateral_full_name: '',
    state: 'AWAITING_VERIFICATION',
    verification: {
      status: null,
      verifications_left: 3,
      mati_identity_id: null,
      verification_id: null,
      review_seconds_left: null,
    },
    widget: { provider: 'builtin' },
    document_sha256: 'a'.repeat(64),
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    ...overrides,
  };
}

export const envelope = (status: number, code: string, message: string, readable: string) =>
  json(status, { code, message, readable_message: readable });

/**
 * The screens under test at `url` (a path, or a history entry with its state); any other path is
 * 'Otra pantalla' (Where says which).
 */
export function renderRoutes(url: string | { pathname: string; search?: string; state?: unknown }, routes: ReactNode) {
  return render(
    <ConfigContext value={createPublicConfig()}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          {routes}
          <Route path="*" element={<p>Otra pantalla</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </ConfigContext>,
  );
}
