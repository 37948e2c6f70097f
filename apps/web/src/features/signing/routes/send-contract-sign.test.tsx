import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uiState } from '../../../shared/lib/ui-state.js';
import { ApiError } from '../../../shared/lib/api-client.js';
import { putPhoto } from '../api/identity-photos.js';
import { CAMERA_SIZE, photoFromFile } from '../lib/photo.js';
import { json, stubApi, type Call } from '../../../test/fetch-stub.js';
import { TOKEN, USER_ID, createSigningLink, envelope, renderRoutes } from '../../../test/signing.js';
import { SendContractSignRoute } from './send-contract-sign.js';

vi.mock('../lib/photo.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/photo.js')>()),
  photoFromVideo: vi.fn(async () => new Blob(['camera'], { type: 'image/webp' })),
  photoFromFile: vi.fn(async (file: File) => new Blob([file], { type: 'image/webp' })),
}));

/** The photos' own requests (XMLHttpRequest, for their progress) stand in: each one arrives. */
let photosTaken = 0;
const shaOf = new WeakMap<Blob, string>();
vi.mock('../api/identity-photos.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/identity-photos.js')>()),
  photoSha256: vi.fn(async (blob: Blob) => {
    if (!shaOf.has(blob)) shaOf.set(blob, String(++photosTaken).padStart(64, '0'));
    return shaOf.get(blob)!;
  }),
  putPhoto: vi.fn(() => ({ done: Promise.resolve(), abort: () => {} })),
  heldPhotos: vi.fn(async () => ({ photos: [] })),
}));

const LINK_URL = `/api/v1/users/SK/${USER_ID}/contract-link`;
const CHECK_URL = `/api/v1/users/SK/${USER_ID}/identity-checks`;
const QUERY = `user_type_id=SK&user_id=${USER_ID}&titular_full_name=Juana+G%C3%B3mez+N%C3%BA%C3%B1ez&type=titular&collateral_full_name=`;
const REVIEW = `/SK/${USER_ID}/${encodeURIComponent('Juana Gómez Núñez')}/titular/-/review-documents`;
const where = () => screen.getByTestId('where').textContent;

function open(url = `/send-contract-sign?${QUERY}&token=${TOKEN}`) {
  renderRoutes(url, <Route path="/send-contract-sign" element={<SendContractSignRoute />} />);
}

/** The API: the link (or its refusal) and, when asked, the check's answer. */
function api(link: Response | (() => Response), check?: (call: Call) => Response) {
  return stubApi((call) => {
    if (call.url === LINK_URL) return typeof link === 'function' ? link() : link;
    if (call.url === CHECK_URL && check) return check(call);
    return undefined;
  });
}
const verification = (status: 'REJECTED' | 'APPROVED', left: number, identity: string) => ({
  status,
  verifications_left: left,
  mati_identity_id: identity,
  verification_id: 'v-0',
  review_seconds_left: 0,
});
/** The kinds of the photos sent, in order. */
const sentKinds = () => vi.mocked(putPhoto).mock.calls.map(([, photo]) => photo.kind);
const linkAnswer = (overrides: Parameters<typeof createSigningLink>[0] = {}) =>
  json(200, { data: createSigningLink(overrides) });
const uploaded = (verificationType = 'VERIFICATION') =>
  json(201, { data: { verification_id: 'v-1', verification_type: verificationType, verifications_left: 2 } });

type Camera = 'ok' | 'denied' | 'missing';
/** navigator.mediaDevices as a phone gives it (or refuses it); every track opened is kept. */
function stubCamera(kind: Camera) {
  const tracks: { stop: ReturnType<typeof vi.fn> }[] = [];
  const getUserMedia = vi.fn(async (_constraints: MediaStreamConstraints) => {
    if (kind === 'denied') throw new DOMException('Permission denied', 'NotAllowedError');
    const track = { stop: vi.fn() };
    tracks.push(track);
    return { getTracks: () => [track] } as unknown as MediaStream;
  });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: kind === 'missing' ? undefined : { getUserMedia },
  });
  return { getUserMedia, tracks };
}

const STEPS = ['Frente de tu cédula', 'Reverso de tu cédula', 'Tu selfie'];

async function takePhotosWithCamera() {
  for (const step of STEPS) {
    await screen.findByRole('heading', { name: step });
    fireEvent.click(screen.getByRole('button', { name: 'Tomar foto' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Usar foto' }));
  }
}

describe('/send-contract-sign (SPEC §2.4)', () => {
  beforeEach(() => {
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo'), revokeObjectURL: vi.fn() });
  });
  afterEach(() => {
    cleanup();
    vi.clearAllMocks();
    vi.mocked(putPhoto).mockImplementation(() => ({ done: Promise.resolve(), abort: () => {} }));
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    uiState.reset();
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });

  it('loads the link with its token, keeps the token for the tab and takes it out of the address', async () => {
    stubCamera('ok');
    const calls = api(linkAnswer());
    open();

    expect(screen.getByRole('heading', { level: 1, name: 'Firma de contrato' })).toBeTruthy();

    const contract = (await screen.findByRole('link', { name: 'Ver Contrato' })) as HTMLAnchorElement;
    expect(contract.getAttribute('href')).toBe(`/api/v1/users/SK/${USER_ID}/contract?token=${TOKEN}`);
    expect(contract.target).toBe('_blank');
    expect(contract.rel).toBe('noopener');
    expect(screen.getByText(/^Hola, Juana Gómez Núñez\. Lee con atención tu contrato de crédito/)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Frente de tu cédula' })).toBeTruthy();

    expect(calls[0]).toMatchObject({ method: 'GET', url: LINK_URL, authorization: `Bearer ${TOKEN}` });
    expect(sessionStorage.getItem('contract_token')).toBe(TOKEN);
    expect(where()).toBe(`/send-contract-sign?${QUERY}`);
  });

  it('a reload (no token in the address) uses the token this tab kept', async () => {
    sessionStorage.setItem('contract_token', TOKEN);
    const calls = api(linkAnswer());
    open(`/send-contract-sign?${QUERY}`);
    await screen.findByRole('link', { name: 'Ver Contrato' });
    expect(calls[0]).toMatchObject({ url: LINK_URL, authorization: `Bearer ${TOKEN}` });
  });

  it.each([
    ['401 (expired or altered link)', () => envelope(401, 'UNAUTHENTICATED', 'invalid token', 'Tu enlace venció.')],
    ['409 LINK_USED (used or replaced)', () => envelope(409, 'LINK_USED', 'link used', 'Este enlace ya se usó.')],
    ['403', () => envelope(403, 'FORBIDDEN', 'forbidden', 'No permitido.')],
  ])('%s: the modal asks for a new link, with the support chat', async (_name, refusal) => {
    api(refusal);
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Necesitas un enlace nuevo' });
    expect(dialog.textContent).toContain(
      'Este contrato debe firmarse desde un enlace nuevo. Actualiza la app para recibirlo o contacta a tu analista.',
    );
    const chat = within(dialog).getByRole('link', { name: 'Contactar a soporte' }) as HTMLAnchorElement;
    expect(chat.href).toBe(
      `https://wa.me/18095550100?text=${encodeURIComponent('Hola, necesito un enlace nuevo para firmar mi contrato.')}`,
    );
    expect(screen.queryByRole('link', { name: 'Ver Contrato' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Verifica tu identidad' })).toBeNull();
    expect(uiState.get().error).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('no token at all: the same modal, without a call', async () => {
    const calls = api(linkAnswer());
    open(`/send-contract-sign?${QUERY}`);
    expect(await screen.findByRole('dialog', { name: 'Necesitas un enlace nuevo' })).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('any other failure: the error modal and a way to try again', async () => {
    stubCamera('ok');
    let answers = 0;
    api(() => (++answers === 1 ? envelope(500, 'INTERNAL', 'boom', 'Algo salió mal.') : linkAnswer()));
    open();
    await waitFor(() => expect(uiState.get().error?.message).toBe('Algo salió mal.'));
    fireEvent.click(screen.getByRole('button', { name: 'Intentar de nuevo' }));
    expect(await screen.findByRole('heading', { name: 'Frente de tu cédula' })).toBeTruthy();
  });

  it("no attempts left: 'Agotaste los intentos de verificación' and the support chat instead of the widget", async () => {
    stubCamera('ok');
    api(linkAnswer({ verification: verification('REJECTED', 0, 'id-1') }));
    open();
    expect(await screen.findByRole('heading', { name: 'Agotaste los intentos de verificación' })).toBeTruthy();
    const chat = screen.getByRole('link', { name: 'Contactar a soporte' }) as HTMLAnchorElement;
    expect(decodeURIComponent(chat.href)).toContain('se me acabaron los intentos para firmar mi contrato');
    expect(screen.queryByRole('heading', { name: 'Verifica tu identidad' })).toBeNull();
  });

  it.each([
    ['the link says SIGNED', () => linkAnswer({ state: 'SIGNED' })],
    [
      "the link is refused with 'user not in progress'",
      () => envelope(409, 'SIGNER_SIGNED', 'user not in progress', 'Este contrato ya fue firmado con éxito.'),
    ],
  ])('already signed (%s): the already-signed modal and the signed contract', async (_name, answer) => {
    api(answer);
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Tu contrato ya está firmado' });
    expect(dialog.textContent).toContain(
      'Tu contrato ya fue firmado con éxito. Si crees que es un error, contacta a soporte.',
    );
    expect(within(dialog).getByRole('link', { name: 'Contactar a soporte' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver Contrato' }).getAttribute('href')).toBe(
      `/api/v1/users/SK/${USER_ID}/contract?token=${TOKEN}`,
    );
    expect(screen.queryByRole('heading', { name: 'Verifica tu identidad' })).toBeNull();
    expect(uiState.get().error).toBeNull();
  });

  it("documents with a person at the lender: straight to 'Seguimos trabajando'", async () => {
    const camera = stubCamera('ok');
    api(linkAnswer({ state: 'UNDER_REVIEW' }));
    open();
    await waitFor(() =>
      expect(where()).toBe(`/SK/${USER_ID}/${encodeURIComponent('Juana Gómez Núñez')}/titular/-/manual-verification`),
    );
    expect(camera.getUserMedia).not.toHaveBeenCalled();
  });

  it("verified: 'Continuar a la firma' goes to the signature", async () => {
    api(
      linkAnswer({
        state: 'VERIFIED',
        verification: verification('APPROVED', 2, 'i'),
      }),
    );
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Continuar a la firma' }));
    expect(where()).toBe(`/SK/${USER_ID}/titular/singning`);
  });

  describe('built-in widget', () => {
    it('camera: front, back (back camera) and selfie (front camera), each sent as it is accepted, then the check and the review', async () => {
      const camera = stubCamera('ok');
      const calls = api(linkAnswer(), () => uploaded());
      open();
      await screen.findByRole('heading', { name: 'Frente de tu cédula' });
      fireEvent.click(screen.getByRole('button', { name: 'Tomar foto' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Usar foto' }));
      // On its way while the back is taken, and the screen says so.
      await screen.findByRole('heading', { name: 'Reverso de tu cédula' });
      expect(sentKinds()).toEqual(['id_front']);
      expect(await screen.findByText('Fotos enviadas: 1 de 3')).toBeTruthy();
      for (const step of STEPS.slice(1)) {
        await screen.findByRole('heading', { name: step });
        fireEvent.click(screen.getByRole('button', { name: 'Tomar foto' }));
        fireEvent.click(await screen.findByRole('button', { name: 'Usar foto' }));
      }

      expect(camera.getUserMedia.mock.calls.map(([constraints]) => constraints.video)).toEqual([
        { facingMode: 'environment', ...CAMERA_SIZE },
        { facingMode: 'environment', ...CAMERA_SIZE },
        { facingMode: 'user', ...CAMERA_SIZE },
      ]);
      // Each camera is off once its photo is taken.
      expect(camera.tracks).toHaveLength(3);
      for (const track of camera.tracks) expect(track.stop).toHaveBeenCalledTimes(1);
      await waitFor(() => expect(sentKinds()).toEqual(['id_front', 'id_back', 'selfie']));
      expect(
        vi.mocked(putPhoto).mock.calls.every(([signer, , token]) => signer.userId === USER_ID && token === TOKEN),
      ).toBe(true);

      expect(screen.getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual([
        'Foto: Frente de tu cédula',
        'Foto: Reverso de tu cédula',
        'Foto: Tu selfie',
      ]);
      await waitFor(() => expect(screen.getAllByText('Enviada')).toHaveLength(3));
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() => expect(where()).toBe(`${REVIEW}?verification_type=VERIFICATION`));

      const check = calls.find((call) => call.url === CHECK_URL)!;
      expect(check).toMatchObject({ method: 'POST', authorization: `Bearer ${TOKEN}` });
      const hashes = await Promise.all(
        vi.mocked(putPhoto).mock.calls.map(([, photo]) => [photo.kind, photo.sha256] as const),
      );
      expect(check.body).toEqual({
        person_type: 'titular',
        verification_type: 'VERIFICATION',
        photos: Object.fromEntries(hashes),
      });
    });

    it("after an approval the new check is a REVERIFICATION ('Verificar mi identidad de nuevo')", async () => {
      stubCamera('ok');
      const calls = api(linkAnswer({ state: 'VERIFIED', verification: verification('APPROVED', 2, 'i') }), () =>
        uploaded('REVERIFICATION'),
      );
      open();
      fireEvent.click(await screen.findByRole('button', { name: 'Verificar mi identidad de nuevo' }));
      await takePhotosWithCamera();
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() => expect(where()).toBe(`${REVIEW}?verification_type=REVERIFICATION`));
      expect(calls.find((call) => call.url === CHECK_URL)!.body).toMatchObject({ verification_type: 'REVERIFICATION' });
    });

    it.each<[string, Camera]>([
      ['the camera is refused', 'denied'],
      ['the browser has no camera API', 'missing'],
    ])('%s: the file picker instead (with the right camera hint)', async (_name, kind) => {
      stubCamera(kind);
      const calls = api(linkAnswer(), () => uploaded());
      open();
      for (const [index, step] of STEPS.entries()) {
        await screen.findByRole('heading', { name: step });
        const input = (await screen.findByLabelText('Tomar o elegir foto')) as HTMLInputElement;
        expect(input.type).toBe('file');
        expect(input.accept).toBe('image/*');
        expect(input.getAttribute('capture')).toBe(index === 2 ? 'user' : 'environment');
        if (kind === 'denied') expect(screen.getByText(/No pudimos abrir la cámara/)).toBeTruthy();
        const file = new File(['photo'], `photo-${index}.heic`, { type: 'image/heic' });
        fireEvent.change(input, { target: { files: [file] } });
        fireEvent.click(await screen.findByRole('button', { name: 'Usar foto' }));
      }
      expect(photoFromFile).toHaveBeenCalledTimes(3);
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() => expect(where()).toBe(`${REVIEW}?verification_type=VERIFICATION`));
      expect(sentKinds()).toEqual(['id_front', 'id_back', 'selfie']);
      expect(calls.filter((call) => call.url === CHECK_URL)).toHaveLength(1);
    });

    it('a photo the server refuses says why under it; taken again, it is sent and the check goes', async () => {
      stubCamera('ok');
      const refusal = new ApiError(
        400,
        'VALIDATION_ERROR',
        'invalid fields',
        'La foto del frente de tu cédula está incompleta o dañada. Tómala de nuevo.',
      );
      vi.mocked(putPhoto).mockImplementationOnce(() => ({ done: Promise.reject(refusal), abort: () => {} }));
      const calls = api(linkAnswer(), () => uploaded());
      open();
      await takePhotosWithCamera();
      expect(
        await screen.findByText('La foto del frente de tu cédula está incompleta o dañada. Tómala de nuevo.'),
      ).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Enviar documentos' })).toHaveProperty('disabled', false),
      );
      expect(calls.filter((call) => call.url === CHECK_URL)).toHaveLength(0);

      fireEvent.click(screen.getByRole('button', { name: 'Cambiar: Frente de tu cédula' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Tomar foto' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Usar foto' }));
      await waitFor(() => expect(screen.getAllByText('Enviada')).toHaveLength(3));
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() => expect(where()).toBe(`${REVIEW}?verification_type=VERIFICATION`));
      expect(sentKinds()).toEqual(['id_front', 'id_back', 'selfie', 'id_front']);
    });

    it('the server lacks a photo when the check is asked: it is sent again and the check asked once more', async () => {
      stubCamera('ok');
      let checks = 0;
      api(linkAnswer(), () =>
        ++checks === 1
          ? json(409, {
              code: 'PHOTOS_MISSING',
              message: 'photos missing',
              readable_message: 'Aún no recibimos todas tus fotos.',
              missing: ['id_back'],
            })
          : uploaded(),
      );
      open();
      await takePhotosWithCamera();
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() => expect(where()).toBe(`${REVIEW}?verification_type=VERIFICATION`));
      expect(sentKinds()).toEqual(['id_front', 'id_back', 'selfie', 'id_back']);
      expect(checks).toBe(2);
      expect(uiState.get().error).toBeNull();
    });

    it("'Repetir' takes the photo again", async () => {
      const camera = stubCamera('ok');
      api(linkAnswer());
      open();
      await screen.findByRole('heading', { name: 'Frente de tu cédula' });
      fireEvent.click(screen.getByRole('button', { name: 'Tomar foto' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Repetir' }));
      expect(await screen.findByRole('button', { name: 'Tomar foto' })).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'Frente de tu cédula' })).toBeTruthy();
      await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledTimes(2));
    });

    it('a refused check shows the server’s words and keeps the photos for another try', async () => {
      stubCamera('ok');
      let checks = 0;
      api(linkAnswer(), () =>
        ++checks === 1
          ? envelope(422, 'DOCUMENT_UNREADABLE', 'unreadable', 'No pudimos leer el frente de tu cédula.')
          : uploaded(),
      );
      open();
      await takePhotosWithCamera();
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() => expect(uiState.get().error?.message).toBe('No pudimos leer el frente de tu cédula.'));
      expect(where()).toBe(`/send-contract-sign?${QUERY}`);
      expect(screen.getAllByRole('img')).toHaveLength(3);

      act(() => uiState.clearError());
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      await waitFor(() => expect(where()).toBe(`${REVIEW}?verification_type=VERIFICATION`));
      expect(checks).toBe(2);
      expect(sentKinds()).toHaveLength(3);
    });

    it("a check refused for lack of attempts: 'Intentos no disponibles'", async () => {
      stubCamera('ok');
      api(linkAnswer(), () =>
        envelope(409, 'VERIFICATION_ATTEMPTS_EXHAUSTED', 'no verification attempts left', 'Agotaste los intentos.'),
      );
      open();
      await takePhotosWithCamera();
      fireEvent.click(screen.getByRole('button', { name: 'Enviar documentos' }));
      const dialog = await screen.findByRole('dialog', { name: 'Intentos no disponibles' });
      expect(within(dialog).getByRole('link', { name: 'Contactar a soporte' })).toBeTruthy();
      expect(uiState.get().error).toBeNull();
    });

    it('a photo refused because the link is no longer good: the new-link modal at once', async () => {
      stubCamera('ok');
      const refusal = new ApiError(409, 'LINK_USED', 'link no longer valid', 'Este enlace ya no es válido.');
      vi.mocked(putPhoto).mockImplementationOnce(() => ({ done: Promise.reject(refusal), abort: () => {} }));
      api(linkAnswer());
      open();
      await screen.findByRole('heading', { name: 'Frente de tu cédula' });
      fireEvent.click(screen.getByRole('button', { name: 'Tomar foto' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Usar foto' }));
      expect(await screen.findByRole('dialog', { name: 'Necesitas un enlace nuevo' })).toBeTruthy();
    });

    it('leaving the screen turns the camera off', async () => {
      const camera = stubCamera('ok');
      api(linkAnswer());
      const { unmount } = renderRoutesAndKeep();
      await screen.findByRole('heading', { name: 'Frente de tu cédula' });
      await waitFor(() => expect(camera.tracks).toHaveLength(1));
      unmount();
      expect(camera.tracks[0]!.stop).toHaveBeenCalledTimes(1);
    });
  });

  it('MetaMap: its button with the flow the server chose, and on to the review when it finishes', async () => {
    const metadata = {
      account_id: USER_ID,
      account_type_id: 'SK',
      person_type: 'titular' as const,
      signer_id: 'signer-1',
      signer_proof: 'proof-1',
    };
    api(
      linkAnswer({
        verification: verification('APPROVED', 1, 'mati-7'),
        widget: { provider: 'metamap', client_id: 'client-1', flow_id: 'reverify-flow', metadata },
      }),
    );
    open();
    await screen.findByRole('link', { name: 'Ver Contrato' });
    const button = document.querySelector('metamap-button')!;
    expect(button.getAttribute('clientid')).toBe('client-1');
    expect(button.getAttribute('flowid')).toBe('reverify-flow');
    expect(JSON.parse(button.getAttribute('metadata')!)).toEqual(metadata);
    // The script is added by an effect, which may run a moment after the render on a busy machine.
    await waitFor(() =>
      expect(document.querySelectorAll('script[src="https://web-button.metamap.com/button.js"]')).toHaveLength(1),
    );

    act(() => {
      button.dispatchEvent(new CustomEvent('metamap:userFinishedSdk', { detail: { identityId: 'mati-7' } }));
    });
    expect(where()).toBe(`${REVIEW}?verification_type=REVERIFICATION`);
  });
});

function renderRoutesAndKeep() {
  return renderRoutes(
    `/send-contract-sign?${QUERY}&token=${TOKEN}`,
    <Route path="/send-contract-sign" element={<SendContractSignRoute />} />,
  );
}
