// Test helpers of the signing screens (imported by *.test.tsx only).
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { ConfigContext } from '../shared/lib/config.js';
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

export function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export const envelope = (status: number, code: string, message: string, readable: string) =>
  json(status, { code, message, readable_message: readable });

export interface Call {
  method: string;
  url: string;
  /** JSON bodies parsed; a FormData as it was sent. */
  body: unknown;
  authorization: string | undefined;
  /** What ends the request early (the screen's, joined with its time bound). */
  signal: AbortSignal | null | undefined;
}

/** fetch answered by `answer` (undefined → 404); every call but the error reports is recorded. */
export function stubApi(answer: (call: Call) => Response | Promise<Response> | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/v1/client-errors') return new Response(null, { status: 204 });
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body;
      const call = { method: init?.method ?? 'GET', url, body, authorization: headers.authorization } as Call;
      // Readable by a test that asks for it, left out of comparisons of whole calls.
      Object.defineProperty(call, 'signal', { value: init?.signal, enumerable: false });
      calls.push(call);
      return (await answer(call)) ?? envelope(404, 'NOT_FOUND', 'not found', 'No encontrado');
    }),
  );
  return calls;
}

/** Where the router is: path and query. */
export function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

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
