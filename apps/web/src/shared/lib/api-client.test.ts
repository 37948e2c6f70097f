import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client.js';
import { uiState } from './ui-state.js';

function reply(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
  });

  it('sends JSON with the stored token and returns the body', async () => {
    sessionStorage.setItem('clientToken', 'Bearer abc');
    const fetchMock = reply(200, { data: { ok: true } });
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('POST', '/api/v1/x', { body: { a: 1 } })).resolves.toEqual({ data: { ok: true } });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ authorization: 'Bearer abc', 'content-type': 'application/json' });
    expect(init.body).toBe('{"a":1}');
  });

  it('turns the error envelope into an ApiError', async () => {
    vi.stubGlobal('fetch', reply(422, { code: 'NOT_ELIGIBLE', message: 'm', readable_message: 'No cumples' }));
    const error = await apiRequest('GET', '/api/v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'NOT_ELIGIBLE', readableMessage: 'No cumples' });
  });

  it('a network failure is a Spanish ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiRequest('GET', '/api/v1/x')).rejects.toMatchObject({ status: 0, readableMessage: expect.stringMatching(/conexión/) });
  });

  it('shows the spinner only while the call is in flight', async () => {
    let release: (value: Response) => void = () => {};
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (release = resolve))));
    const call = apiRequest('GET', '/api/v1/x');
    expect(uiState.get().pending).toBe(1);
    release(new Response('{}', { status: 200 }));
    await call;
    expect(uiState.get().pending).toBe(0);
  });
});
