import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigContext } from '../../../shared/lib/config.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { createPublicConfig } from '../../../test/public-config.js';
import { json, stubApi } from '../../../test/fetch-stub.js';
import { TOKEN, USER_ID, renderRoutes } from '../../../test/signing.js';
import { ApprovedDocumentsRoute } from './approved-documents.js';
import { ErrorDocumentsRoute } from './error-documents.js';
import { ManualVerificationRoute } from './manual-verification.js';
import { SigningSuccessRoute } from './signing-success.js';

const SIGNER = '/:userTypeId/:userId/:titularFullName/:personType/:collateralFullName';
const prefix = (personType: string, collateral: string) =>
  `/SK/${USER_ID}/${encodeURIComponent('Juana Gómez')}/${personType}/${collateral ? encodeURIComponent(collateral) : '-'}`;
const where = () => screen.getByTestId('where').textContent;
/** Lets the answers in flight arrive (the status answer lands before the tap). */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the review outcomes (SPEC §2.4)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
  });

  it("approved: 'Fueron aprobados tus documentos', 'Continuar' goes to the signature", () => {
    renderRoutes(
      `${prefix('titular', '')}/approved-documents`,
      <Route path={`${SIGNER}/approved-documents`} element={<ApprovedDocumentsRoute />} />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Fueron aprobados tus documentos' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(where()).toBe(`/SK/${USER_ID}/titular/singning`);
  });

  it('manual verification: a guarantor is told to ask the person they back', () => {
    renderRoutes(
      `${prefix('collateral', 'Ramón Pérez')}/manual-verification`,
      <Route path={`${SIGNER}/manual-verification`} element={<ManualVerificationRoute />} />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Seguimos trabajando' })).toBeTruthy();
    expect(screen.getByText('Estamos revisando tus documentos de forma manual.')).toBeTruthy();
    expect(screen.getByText(/Ponte en contacto con la persona de la que eres aval/)).toBeTruthy();
  });

  it('manual verification: the titular is told we will contact them', () => {
    renderRoutes(
      `${prefix('titular', '')}/manual-verification`,
      <Route path={`${SIGNER}/manual-verification`} element={<ManualVerificationRoute />} />,
    );
    expect(screen.getByText('Te contactaremos en cuanto terminemos la revisión.')).toBeTruthy();
  });

  it("success: 'Felicidades', 'Continuar' leaves for the product's web home", () => {
    render(
      <ConfigContext value={createPublicConfig()}>
        <SigningSuccessRoute />
      </ConfigContext>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Felicidades' })).toBeTruthy();
    expect(screen.getByText('Te enviaremos una copia de tu contrato digital a tu celular.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(uiState.get().redirectUrl).toBe('https://provee.example');
  });
});

describe('…/error-documents (SPEC §2.4)', () => {
  const STATUS_URL = `/api/v1/users/SK/${USER_ID}/mati-status?verification_type=REVERIFICATION&person_type=collateral`;
  const status = (verificationsLeft: number | null) =>
    json(200, { data: { status: 'REJECTED', verifications_left: verificationsLeft, mati_identity_id: 'i' } });

  function open(verificationsLeft: number | null) {
    sessionStorage.setItem('contract_token', TOKEN);
    const calls = stubApi((call) => (call.url === STATUS_URL ? status(verificationsLeft) : undefined));
    renderRoutes(
      `${prefix('collateral', 'Ramón Pérez')}/error-documents?verification_type=REVERIFICATION`,
      <Route path={`${SIGNER}/error-documents`} element={<ErrorDocumentsRoute />} />,
    );
    return calls;
  }

  afterEach(() => vi.unstubAllGlobals());

  it("tips, then 'Reiniciar evaluación' back to the start with the link's query", async () => {
    const calls = open(2);
    expect(screen.getByRole('heading', { level: 1, name: 'No pudimos validar tus documentos' })).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Tu selfie debe coincidir con la foto de tu cédula.',
      'No tomes fotos de fotografías ni de pantallas.',
      'Busca un lugar con buena luz.',
      'Toma foto del frente y del reverso de tu cédula.',
    ]);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ authorization: `Bearer ${TOKEN}` });
    fireEvent.click(screen.getByRole('button', { name: 'Reiniciar evaluación' }));
    const target = new URL(where()!, 'https://x');
    expect(target.pathname).toBe('/send-contract-sign');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      user_type_id: 'SK',
      user_id: USER_ID,
      titular_full_name: 'Juana Gómez',
      type: 'collateral',
      collateral_full_name: 'Ramón Pérez',
    });
  });

  it("no attempts left: 'Intentos no disponibles' with the support chat, and no restart", async () => {
    const calls = open(0);
    await waitFor(() => expect(calls).toHaveLength(1));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Reiniciar evaluación' }));
    const dialog = screen.getByRole('dialog', { name: 'Intentos no disponibles' });
    expect(within(dialog).getByRole('link', { name: 'Contactar a soporte' })).toBeTruthy();
    expect(where()).toContain('/error-documents');
  });

  it('attempts unknown (null): the restart is allowed', async () => {
    const calls = open(null);
    await waitFor(() => expect(calls).toHaveLength(1));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Reiniciar evaluación' }));
    expect(where()).toContain('/send-contract-sign?');
  });
});
