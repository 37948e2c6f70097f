// A stand-in for the browser's fetch, and the router's whereabouts (imported by *.test.tsx only).
import { useLocation } from 'react-router';
import { vi } from 'vitest';

export function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

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
      return (
        (await answer(call)) ??
        json(404, { code: 'NOT_FOUND', message: 'not found', readable_message: 'No encontrado' })
      );
    }),
  );
  return calls;
}

/** Where the router is: path and query. */
export function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}
