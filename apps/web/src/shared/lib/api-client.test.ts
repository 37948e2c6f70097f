import {
  lookupUserRoute,
  placeRoute,
  pollReverseOtpRoute,
  saveTaxIdRoute,
  sendAvalNipRoute,
  sendCodeRoute,
  statesRoute,
  userDetailRoute,
} from '@provee/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.js';
import { apiRequest, urlOf } from './api-request.js';
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
    await expect(apiRequest(sendCodeRoute, { body: { a: 1 } as never })).resolves.toEqual({ data: { ok: true } });
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
    await apiRequest(sendCodeRoute, { body: form as never, headers: { authorization: 'Bearer link' } });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect(init.headers).toEqual({ accept: 'application/json', authorization: 'Bearer link' });
  });

  it('turns the error envelope into an ApiError', async () => {
    vi.stubGlobal('fetch', reply(422, { code: 'NOT_ELIGIBLE', message: 'm', readable_message: 'No cumples' }));
    const error = await apiRequest(statesRoute).catch((e: unknown) => e);
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
    const error = await apiRequest(saveTaxIdRoute, {
      params: { id: 'u1', type: 'SK' },
      body: { tax_payer_id: '001' },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, reprove: '/home/8095551234/verify' });
    expect(sessionStorage.getItem('clientToken')).toBeNull();
    // What was typed stays for the return.
    expect(sessionStorage.getItem('draft_tax_id')).toBe('{"value":"001"}');
    uiState.showError(error);
    expect(uiState.get().error).toMatchObject({ goTo: '/home/8095551234/verify', buttonLabel: 'Continuar' });

    // A call with its own credentials (a guarantor's or a signing link) leaves the session alone.
    sessionStorage.setItem('clientToken', 'Bearer del-comerciante');
    const other = await apiRequest(statesRoute, { headers: { authorization: 'Bearer enlace' } }).catch(
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
    await expect(apiRequest(statesRoute)).rejects.toMatchObject({
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
    const call = apiRequest(statesRoute);
    expect(uiState.get().pending).toBe(1);
    release(new Response('{}', { status: 200 }));
    await call;
    expect(uiState.get().pending).toBe(0);
  });
});

describe('a call is its route of the contract', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fills the path params (encoded) and adds the query, leaving out what is absent', () => {
    expect(urlOf(placeRoute, { params: { placeId: 'a b/c' } })).toBe('/api/v1/addresses/a%20b%2Fc');
    expect(urlOf(sendAvalNipRoute, { params: { id: 'u1', type: 'SK' }, query: { to: '8095551234' } })).toBe(
      '/api/v1/users/u1/SK/aval/nip?to=8095551234',
    );
    expect(urlOf(lookupUserRoute, { query: { phone_number: '8095551234', anonymous_id: undefined } })).toBe(
      '/api/v1/users?phone_number=8095551234',
    );
    expect(urlOf(statesRoute)).toBe('/api/v1/states');
  });

  it('sends the route’s method to its URL', async () => {
    const fetchMock = reply(200, { data: {} });
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest(userDetailRoute, { params: { id: 'u1', type: 'SK' } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/users/u1/SK');
    expect(init.method).toBe('GET');
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
    await apiRequest(lookupUserRoute, { query: { phone_number: '8095551234' } }).catch(() => {});
    expect(reports()).toEqual([]);
  });

  it('reports other 4xx as warnings and 5xx as errors, with the request id', async () => {
    let reports = stub(403);
    await apiRequest(userDetailRoute, { params: { id: 'u1', type: 'SK' } }).catch(() => {});
    expect(reports()).toEqual([
      expect.objectContaining({ level: 'warning', status: 403, method: 'GET', request_id: 'req-9' }),
    ]);
    reports = stub(502);
    await apiRequest(sendCodeRoute, { body: { phone_number: '8095551234' } }).catch(() => {});
    expect(reports()).toEqual([expect.objectContaining({ level: 'error', status: 502 })]);
  });

  it('reports nothing when the caller says so', async () => {
    const reports = stub(500);
    await apiRequest(pollReverseOtpRoute, { body: { session_id: 's' }, report: false }).catch(() => {});
    expect(reports()).toEqual([]);
  });
});
