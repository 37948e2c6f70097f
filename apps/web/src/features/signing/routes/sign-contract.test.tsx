import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uiState } from '../../../shared/lib/ui-state.js';
import type { Stroke } from '../lib/signature.js';
import { json, stubApi } from '../../../test/fetch-stub.js';
import { TOKEN, USER_ID, envelope, renderRoutes } from '../../../test/signing.js';
import { SignContractRoute } from './sign-contract.js';

/** jsdom draws nothing: the pad is a stand-in whose strokes each test sets. */
const pad = vi.hoisted(() => ({
  strokes: [] as Stroke[],
  clear: vi.fn(),
  options: undefined as unknown,
  instance: undefined as { minWidth?: number; maxWidth?: number } | undefined,
  canvas: undefined as HTMLCanvasElement | undefined,
  events: new EventTarget(),
}));
vi.mock('signature_pad', () => ({
  default: class {
    minWidth = 0.5;
    maxWidth = 2.5;
    constructor(canvas: HTMLCanvasElement, options: unknown) {
      pad.canvas = canvas;
      pad.options = options;
      pad.instance = this;
    }
    clear() {
      pad.clear();
      pad.strokes = [];
    }
    off() {}
    addEventListener(type: string, listener: EventListener) {
      pad.events.addEventListener(type, listener);
    }
    removeEventListener(type: string, listener: EventListener) {
      pad.events.removeEventListener(type, listener);
    }
    toData() {
      return pad.strokes;
    }
  },
}));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAASwAAAHW';
vi.mock('../lib/signature-image.js', () => ({ trimmedSignaturePng: vi.fn(() => PNG) }));

const CONTRACT_URL = `/api/v1/users/SK/${USER_ID}/contract`;
const where = () => screen.getByTestId('where').textContent;

/** A stroke of `count` points across a `width`×`height` box. */
function stroke(count: number, width: number, height: number): Stroke {
  return {
    points: Array.from({ length: count }, (_, i) => ({
      x: 20 + (width * i) / Math.max(1, count - 1),
      y: 100 + (height * i) / Math.max(1, count - 1),
    })),
  };
}

function open(personType = 'titular') {
  renderRoutes(
    `/SK/${USER_ID}/${personType}/singning`,
    <Route path="/:userTypeId/:userId/:personType/singning" element={<SignContractRoute />} />,
  );
}

function signed() {
  return json(200, {
    data: { person_type: 'titular', signed_at: new Date().toISOString(), contract_sha256: 'a'.repeat(64) },
  });
}

/** Draws a real-looking signature, saves it and accepts the terms. */
async function saveAndAccept() {
  pad.strokes = [stroke(30, 180, 60)];
  fireEvent.click(screen.getByRole('button', { name: 'Guardar firma' }));
  const dialog = screen.getByRole('dialog', { name: 'Términos del contrato' });
  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Entiendo y acepto los términos del contrato' }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));
}

describe('/{user_type_id}/{user_id}/{person_type}/singning (SPEC §2.4)', () => {
  beforeEach(() => {
    sessionStorage.setItem('contract_token', TOKEN);
    pad.strokes = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });
  afterEach(() => {
    vi.clearAllMocks();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    uiState.reset();
    Reflect.deleteProperty(navigator, 'geolocation');
    Reflect.deleteProperty(window, 'devicePixelRatio');
  });

  it('a 300×470 pad with a black pen of minimum width 3, sharp on a dense screen', () => {
    Object.defineProperty(window, 'devicePixelRatio', { configurable: true, value: 2 });
    stubApi(() => undefined);
    open();
    expect(screen.getByRole('heading', { level: 1, name: 'Firma tu contrato' })).toBeTruthy();
    expect(screen.getByText('Firma dentro del recuadro con tu dedo.')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Recuadro para tu firma' })).toBe(pad.canvas);
    expect(pad.options).toMatchObject({ penColor: 'black' });
    expect(pad.instance).toMatchObject({ minWidth: 3, maxWidth: 4.5 });
    expect([pad.canvas!.width, pad.canvas!.height]).toEqual([600, 940]);
  });

  it.each([
    ['nothing drawn', []],
    ['a tap', [stroke(3, 2, 2)]],
    ['a tiny scribble', [stroke(40, 30, 10)]],
  ])('%s: the signature is too small, and the terms do not open', (_name, strokes) => {
    stubApi(() => undefined);
    open();
    pad.strokes = strokes;
    fireEvent.click(screen.getByRole('button', { name: 'Guardar firma' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Tu firma es muy pequeña. Firma dentro del recuadro con tu dedo.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a new stroke hides the "too small" message', () => {
    stubApi(() => undefined);
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Guardar firma' }));
    expect(screen.getByRole('alert')).toBeTruthy();
    act(() => {
      pad.events.dispatchEvent(new Event('beginStroke'));
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("'Reintentar firma' clears the pad and the message", () => {
    stubApi(() => undefined);
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Guardar firma' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar firma' }));
    expect(pad.clear).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("the terms: 'Continuar' stays off until the checkbox is ticked", () => {
    stubApi(() => undefined);
    open();
    pad.strokes = [stroke(30, 180, 60)];
    fireEvent.click(screen.getByRole('button', { name: 'Guardar firma' }));
    const dialog = screen.getByRole('dialog', { name: 'Términos del contrato' });
    const go = within(dialog).getByRole('button', { name: 'Continuar' }) as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    const box = within(dialog).getByRole('checkbox', { name: 'Entiendo y acepto los términos del contrato' });
    fireEvent.click(box);
    expect(go.disabled).toBe(false);
    fireEvent.click(box);
    expect(go.disabled).toBe(true);
    expect(within(dialog).getByRole('link', { name: 'Ver Contrato' }).getAttribute('href')).toBe(
      `${CONTRACT_URL}?token=${TOKEN}`,
    );
  });

  it('signs: PUT …/contract with the trimmed PNG (no data-URL prefix) and the person type, then /singning-success', async () => {
    const calls = stubApi((call) => (call.url === CONTRACT_URL ? signed() : undefined));
    open('collateral');
    await saveAndAccept();
    await waitFor(() => expect(where()).toBe('/singning-success'));
    expect(calls).toEqual([
      {
        method: 'PUT',
        url: CONTRACT_URL,
        authorization: `Bearer ${TOKEN}`,
        // jsdom has no geolocation: no position, and signing does not wait for one.
        body: { person_type: 'collateral', signature: PNG, metadata: '' },
      },
    ]);
    expect(sessionStorage.getItem('contract_token')).toBeNull();
  });

  it('echoes the hash of the document the signing page offered, then forgets it', async () => {
    sessionStorage.setItem('contract_document', 'b'.repeat(64));
    const calls = stubApi((call) => (call.url === CONTRACT_URL ? signed() : undefined));
    open();
    await saveAndAccept();
    await waitFor(() => expect(where()).toBe('/singning-success'));
    expect(calls[0]!.body).toMatchObject({ document_sha256: 'b'.repeat(64) });
    expect(sessionStorage.getItem('contract_document')).toBeNull();
  });

  it('the browser position, when given, travels as the metadata', async () => {
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: {
        getCurrentPosition: (ok: PositionCallback) =>
          ok({
            coords: { latitude: 18.4861, longitude: -69.9312, accuracy: 25 },
            timestamp: 1_760_000_000_000,
          } as GeolocationPosition),
      },
    });
    const calls = stubApi((call) => (call.url === CONTRACT_URL ? signed() : undefined));
    open();
    await saveAndAccept();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(JSON.parse((calls[0]!.body as { metadata: string }).metadata)).toEqual({
      latitude: 18.4861,
      longitude: -69.9312,
      accuracy: 25,
      timestamp: 1_760_000_000_000,
    });
  });

  it("'user not in progress': the contract was already signed (modal with the support chat)", async () => {
    stubApi((call) =>
      call.url === CONTRACT_URL
        ? envelope(409, 'SIGNER_SIGNED', 'user not in progress', 'Este paso de la firma ya no está disponible.')
        : undefined,
    );
    open();
    await saveAndAccept();
    const dialog = await screen.findByRole('dialog', { name: 'Tu contrato ya está firmado' });
    expect(dialog.textContent).toContain(
      'Tu contrato ya fue firmado con éxito. Si crees que es un error, contacta a soporte.',
    );
    expect(within(dialog).getByRole('link', { name: 'Contactar a soporte' })).toBeTruthy();
    expect(uiState.get().error).toBeNull();
  });

  it('any other refusal: the error modal, and the drawing stays for another try', async () => {
    let answers = 0;
    const calls = stubApi((call) =>
      call.url === CONTRACT_URL
        ? ++answers === 1
          ? envelope(409, 'SIGNER_NOT_READY', 'signer is not at this step', 'Primero verifica tu identidad.')
          : signed()
        : undefined,
    );
    open();
    await saveAndAccept();
    await waitFor(() => expect(uiState.get().error?.message).toBe('Primero verifica tu identidad.'));
    expect(pad.clear).not.toHaveBeenCalled();
    expect(where()).toBe(`/SK/${USER_ID}/titular/singning`);
    expect(sessionStorage.getItem('contract_token')).toBe(TOKEN);

    act(() => uiState.clearError());
    await saveAndAccept();
    await waitFor(() => expect(where()).toBe('/singning-success'));
    expect(calls).toHaveLength(2);
  });

  it('an expired link: the modal asking for a new link', async () => {
    stubApi((call) =>
      call.url === CONTRACT_URL ? envelope(401, 'UNAUTHENTICATED', 'invalid token', 'Tu enlace venció.') : undefined,
    );
    open();
    await saveAndAccept();
    expect(await screen.findByRole('dialog', { name: 'Necesitas un enlace nuevo' })).toBeTruthy();
  });
});
