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

  it('an ended session (401 on the stored token): the token goes, the error says where to prove the number again', async () => {
    sessionStorage.setItem('clientToken', 'Bearer vencido');
    sessionStorage.setItem('proven_phone', '8095551234');
    // A number typed on /home since, and never proven, is not the one to prove again.
    sessionStorage.setItem('phone_number', '8295550000');
    sessionStorage.setItem('draft_tax_id', '{"value":"001"}');
    const expired = { code: 'UNAUTHENTICATED', message: 'unauthenticated', readable_message: 'Tu sesión…' };
    vi.stubGlobal('fetch', reply(401, expired));
    const error = await apiRequest('POST', '/api/v1/users/u1/SK/tax_info').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, reprove: '/home/8095551234/verify' });
    expect(sessionStorage.getItem('clientToken')).toBeNull();
    // What was typed stays for the return.
    expect(sessionStorage.getItem('draft_tax_id')).toBe('{"value":"001"}');
    uiState.showError(error);
    expect(uiState.get().error).toMatchObject({ goTo: '/home/8095551234/verify', buttonLabel: 'Continuar' });

    // A call with its own credentials (a guarantor's or a signing link) leaves the session alone.
    sessionStorage.setItem('clientToken', 'Bearer del-comerciante');
    const other = await apiRequest('GET', '/api/v1/x', { headers: { authorization: 'Bearer enlace' } }).catch(
      (e: unknown) => e,
    );
    expect(other).toMatchObject({ status: 401 });
    expect((other as ApiError).reprove).toBeUndefined();
    expect(sessionStorage.getItem('clientToken')).toBe('Bearer del-comerciante');
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
