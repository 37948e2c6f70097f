import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client.js';
import { uiState } from './ui-state.js';

function reply(status: number, body: unknown) {
  return vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
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

  it('sends a FormData as is, leaving the multipart content type to the browser', async () => {
    const fetchMock = reply(200, { data: { ok: true } });
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('person_type', 'titular');
    form.append('selfie', new Blob(['jpeg'], { type: 'image/jpeg' }), 'selfie.jpg');
    await apiRequest('POST', '/api/v1/x', { body: form, headers: { authorization: 'Bearer link' } });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect(init.headers).toEqual({ accept: 'application/json', authorization: 'Bearer link' });
  });

  it('turns the error envelope into an ApiError', async () => {
    vi.stubGlobal('fetch', reply(422, { code: 'NOT_ELIGIBLE', message: 'm', readable_message: 'No cumples' }));
    const error = await apiRequest('GET', '/api/v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'NOT_ELIGIBLE', readableMessage: 'No cumples' });
  });

  it('a network failure is a Spanish ApiError with status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('GET', '/api/v1/x')).rejects.toMatchObject({
      status: 0,
      readableMessage: expect.stringMatching(/conexión/),
    });
  });

  it('shows the spinner only while the call is in flight', async () => {
    let release: (value: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    const call = apiRequest('GET', '/api/v1/x');
    expect(uiState.get().pending).toBe(1);
    release(new Response('{}', { status: 200 }));
    await call;
    expect(uiState.get().pending).toBe(0);
  });
});

describe('failed-call reporting (SPEC §8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  function stub(status: number) {
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) =>
      url === '/api/v1/client-errors'
        ? new Response(null, { status: 204 })
        : new Response(JSON.stringify({ code: 'X', message: 'm', readable_message: 'r' }), {
            status,
            headers: { 'x-request-id': 'req-9' },
          }),
    );
    vi.stubGlobal('fetch', fetchMock);
    return () =>
      fetchMock.mock.calls
        .filter(([url]) => url === '/api/v1/client-errors')
        .map(([, init]) => JSON.parse(String(init?.body)));
  }

  it('skips the expected 404 of the user lookup', async () => {
    const reports = stub(404);
    await apiRequest('GET', '/api/v1/users?phone_number=8095551234').catch(() => {});
    expect(reports()).toEqual([]);
  });

  it('reports other 4xx as warnings and 5xx as errors, with the request id', async () => {
    let reports = stub(403);
    await apiRequest('GET', '/api/v1/users/u1/SK').catch(() => {});
    expect(reports()).toEqual([
      expect.objectContaining({ level: 'warning', status: 403, method: 'GET', request_id: 'req-9' }),
    ]);
    reports = stub(502);
    await apiRequest('POST', '/api/v1/users/code').catch(() => {});
    expect(reports()).toEqual([expect.objectContaining({ level: 'error', status: 502 })]);
  });

  it('reports nothing when the caller says so', async () => {
    const reports = stub(500);
    await apiRequest('PUT', '/api/v1/users/reverse-otp', { report: false }).catch(() => {});
    expect(reports()).toEqual([]);
  });
});
