import type { PersonalDataExport, PrivacyRequestView } from '@provee/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { uiState } from '../../../shared/lib/ui-state.js';
import { json, stubApi } from '../../../test/fetch-stub.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import { MyDataRoute } from './my-data.js';

const PHONE = '8095551234';
const USER = '3f0c1d9e-8a55-4a57-9a8e-1e2b3c4d5e6f';
const BASE = `/api/v1/users/${USER}/SK/privacy`;

const held: PersonalDataExport = {
  application: { id: USER, status: 'IN_PROGRESS', next_step: 'ACCOUNT_NIP', started_at: '2026-11-20T10:00:00Z' },
  categories: [
    {
      category: 'identity',
      label: 'Identidad',
      fields: [
        { source: 'users.name', label: 'Nombre', basis: 'Contrato', retention: '90 días', value: 'Begoña' },
        {
          source: 'users.dob',
          label: 'Fecha de nacimiento',
          basis: 'Contrato',
          retention: '90 días',
          value: '1990-02-03',
        },
      ],
    },
  ],
};

const createRequest = (overrides: Partial<PrivacyRequestView> = {}): PrivacyRequestView => ({
  id: 'r1',
  folio: 'ARCO-2026-000007',
  application_id: USER,
  kind: 'cancellation',
  reason: 'Ya no quiero el crédito.',
  field: null,
  state: 'RECEIVED',
  deadline: '2026-12-07',
  overdue: false,
  refusal_reason: null,
  resolution: null,
  created_at: '2026-11-21T12:00:00Z',
  decided_at: null,
  ...overrides,
});

const renderAt = () =>
  renderScreenAt(
    `/${PHONE}/${USER}/mis-datos`,
    <Route path="/:phoneNumber/:userId/mis-datos" element={<MyDataRoute />} />,
  );

describe('/{phone}/{userId}/mis-datos (issue 31)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
  });

  it('shows what is kept and the requests with folio, deadline and state', async () => {
    stubApi((call) => {
      if (call.url === `${BASE}/data`) return json(200, { data: held });
      if (call.url === `${BASE}/requests`)
        return json(200, {
          data: { items: [createRequest({ state: 'REFUSED', refusal_reason: 'Hay un contrato firmado.' })] },
        });
      return undefined;
    });
    renderAt();

    expect(await screen.findByRole('heading', { level: 1, name: 'Mis datos' })).toBeTruthy();
    const identity = screen.getByRole('region', { name: 'Identidad' });
    expect(within(identity).getByText('Begoña')).toBeTruthy();
    // The birth date in words, never as the stored ISO day.
    expect(within(identity).getByText('3 de febrero de 1990')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Mis solicitudes' });
    expect(within(list).getByText('ARCO-2026-000007')).toBeTruthy();
    expect(within(list).getByText('7 de diciembre de 2026')).toBeTruthy();
    expect(within(list).getByText('Negada')).toBeTruthy();
    expect(within(list).getByText('Motivo: Hay un contrato firmado.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descargar en JSON' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descargar en PDF' })).toBeTruthy();
  });

  it('files a cancellation with its reason and shows its folio and deadline; a second one shows the server’s refusal', async () => {
    let filed = 0;
    const calls = stubApi((call) => {
      if (call.url === `${BASE}/data`) return json(200, { data: held });
      if (call.url === `${BASE}/requests` && call.method === 'GET') return json(200, { data: { items: [] } });
      if (call.url === `${BASE}/requests` && call.method === 'POST')
        return filed++ === 0
          ? json(201, { data: createRequest() })
          : json(409, {
              code: 'PRIVACY_REQUEST_OPEN',
              message: 'open',
              readable_message: 'Ya tienes una solicitud de este tipo en trámite.',
            });
      return undefined;
    });
    renderAt();
    expect(await screen.findByText('Aún no has hecho ninguna solicitud.')).toBeTruthy();

    const ask = () => {
      fireEvent.change(screen.getByLabelText('¿Qué quieres pedir?'), { target: { value: 'cancellation' } });
      fireEvent.change(screen.getByLabelText('Cuéntanos el motivo'), { target: { value: 'Ya no quiero el crédito.' } });
      fireEvent.click(screen.getByRole('button', { name: 'Enviar solicitud' }));
    };
    ask();
    expect(
      await screen.findByText(
        'Recibimos tu solicitud con el folio ARCO-2026-000007. Te responderemos a más tardar el 7 de diciembre de 2026.',
      ),
    ).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      kind: 'cancellation',
      reason: 'Ya no quiero el crédito.',
    });
    expect(within(screen.getByRole('list', { name: 'Mis solicitudes' })).getByText('Recibida')).toBeTruthy();

    ask();
    expect(await screen.findByText('Ya tienes una solicitud de este tipo en trámite.')).toBeTruthy();
  });

  it('asks which field a rectification is about, and shows the server’s field messages', async () => {
    const calls = stubApi((call) => {
      if (call.url === `${BASE}/data`) return json(200, { data: held });
      if (call.url === `${BASE}/requests` && call.method === 'GET') return json(200, { data: { items: [] } });
      if (call.method === 'POST')
        return json(400, {
          code: 'VALIDATION_ERROR',
          message: 'invalid',
          readable_message: 'Revisa los datos.',
          issues: [{ field: 'body.reason', message: 'Cuéntanos el motivo con al menos 10 caracteres.' }],
        });
      return undefined;
    });
    renderAt();
    fireEvent.change(await screen.findByLabelText('¿Qué quieres pedir?'), { target: { value: 'rectification' } });
    fireEvent.change(screen.getByLabelText('¿Qué dato está mal?'), { target: { value: 'lastname' } });
    fireEvent.change(screen.getByLabelText('Cuéntanos el motivo'), { target: { value: 'Mal' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar solicitud' }));
    expect(await screen.findByText('Cuéntanos el motivo con al menos 10 caracteres.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      kind: 'rectification',
      field: 'lastname',
      reason: 'Mal',
    });
  });

  it('says the data was erased, on the day it was, instead of listing anything', async () => {
    const erased: PersonalDataExport = {
      application: { ...held.application, erased_at: '2026-11-25 18:30:00.123+00' },
      categories: [],
    };
    stubApi((call) => {
      if (call.url === `${BASE}/data`) return json(200, { data: erased });
      if (call.url === `${BASE}/requests`) return json(200, { data: { items: [createRequest({ state: 'DONE' })] } });
      return undefined;
    });
    renderAt();

    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'Borramos tus datos personales el 25 de noviembre de 2026. Solo conservamos lo que la ley nos obliga a guardar (el registro de tu consentimiento y, si lo hay, el contrato firmado) hasta que venza su plazo.',
    );
    expect(screen.queryByText('No guardamos otros datos tuyos.')).toBeNull();
  });
});
