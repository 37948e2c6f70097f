import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION_ID,
  createChain,
  createDetail,
  createSigner,
  createStaff,
  json,
  renderBackoffice,
  stubSignedIn,
  type Call,
} from '../../../test/backoffice.js';
import type { ApplicationDetail, StaffView } from '@provee/domain';

const DETAIL = `/api/backoffice/applications/${APPLICATION_ID}`;
const section = (name: string) => screen.getByRole('region', { name });

function open(
  role: StaffView['role'],
  detail: ApplicationDetail,
  answer: (call: Call) => Response | undefined = () => undefined,
) {
  const calls = stubSignedIn(createStaff({ role }), (call) =>
    call.method === 'GET' && call.url === DETAIL ? json(200, { data: detail }) : answer(call),
  );
  renderBackoffice(`/backoffice/applications/${APPLICATION_ID}`);
  return calls;
}

describe('/backoffice/applications/:applicationId', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('has every section, with the personal data as the API sent them', async () => {
    open('analyst', createDetail());
    expect(await screen.findByRole('heading', { level: 1, name: 'José Ramírez Ortiz' })).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([
      'Datos personales',
      'Negocio',
      'Dirección',
      'Consentimientos',
      'Buró y decisión',
      'Avales',
      'Decisión del prestamista',
      'Verificación de identidad',
      'Contrato',
      'Contactos con asesor',
      'Mensajes enviados',
      'Historial',
    ]);
    expect(within(section('Datos personales')).getByText('001-1234567-8')).toBeTruthy();
  });

  it('lists the messages sent with their channel and delivery, a fallback marked, never a text', async () => {
    const at = '2026-11-24T15:00:00.000Z';
    open(
      'advisor',
      createDetail({
        messages: [
          {
            id: 'm2',
            kind: 'consent-pin',
            channel: 'sms',
            status: 'delivered',
            error_code: null,
            fallback_of: 'm1',
            created_at: at,
            status_at: at,
          },
          {
            id: 'm1',
            kind: 'consent-pin',
            channel: 'whatsapp',
            status: 'failed',
            error_code: '63003',
            fallback_of: null,
            created_at: at,
            status_at: at,
          },
          {
            id: 'm0',
            kind: 'reminder',
            channel: 'whatsapp',
            status: 'read',
            error_code: null,
            fallback_of: null,
            created_at: at,
            status_at: at,
          },
        ],
      }),
    );
    await screen.findByRole('heading', { level: 1, name: 'José Ramírez Ortiz' });
    const rows = within(section('Mensajes enviados')).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((cell) => cell.textContent))).toEqual([
      ['NIP de consulta (respaldo)', 'SMS', 'Entregado'],
      ['NIP de consulta', 'WhatsApp', 'Falló · el número no tiene WhatsApp'],
      ['Recordatorio', 'WhatsApp', 'Leído'],
    ]);
  });

  it('for an advisor: masked tax id and birth date, no identity image, no review buttons', async () => {
    const detail = createDetail({
      sensitive_visible: false,
      person: { ...createDetail().person, tax_id: '•••••••••••678', birth_date: '••••-••-14' },
    });
    const calls = open('advisor', detail);
    await screen.findByRole('heading', { level: 1, name: 'José Ramírez Ortiz' });

    const person = section('Datos personales');
    expect(within(person).getByText('•••••••••••678')).toBeTruthy();
    expect(within(person).getByText('••••-••-14')).toBeTruthy();
    expect(within(person).queryByText('001-1234567-8')).toBeNull();

    const identity = section('Verificación de identidad');
    expect(within(identity).queryByRole('img')).toBeNull();
    expect(within(identity).getByText(/Solo analistas pueden ver las imágenes/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Aprobar verificación' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Registrar aval' })).toBeNull();
    // The browser never even asks for the images.
    expect(calls.some((call) => call.url.includes('/identity-documents/'))).toBe(false);
  });

  it('for an analyst: the images, and a review decision with its note, then "Decisión registrada"', async () => {
    const signer = createSigner();
    const verification = signer.verifications[0]!;
    let decided = false;
    const calls = stubSignedIn(createStaff({ role: 'analyst' }), (call) => {
      if (call.method === 'GET' && call.url === DETAIL) {
        const state = decided
          ? createSigner({ ...signer, state: 'VERIFIED', verifications: [{ ...verification, status: 'APPROVED' }] })
          : signer;
        return json(200, { data: createDetail({ signers: [state] }) });
      }
      if (call.method === 'POST' && call.url === `${DETAIL}/verifications/${verification.id}/decision`) {
        decided = true;
        return json(200, { data: { next_step: 'PENDING_APPROVAL', status: 'IN_PROGRESS', result: {} } });
      }
      return undefined;
    });
    renderBackoffice(`/backoffice/applications/${APPLICATION_ID}`);

    const identity = await screen.findByRole('region', { name: 'Verificación de identidad' });
    const images = within(identity).getAllByRole('img');
    expect(images.map((img) => img.getAttribute('src'))).toEqual(
      verification.documents.map((d) => `${DETAIL}/identity-documents/${d.id}`),
    );
    expect(images[0]!.getAttribute('alt')).toBe('Frente de la identificación');

    // A note is required before deciding.
    fireEvent.click(screen.getByRole('button', { name: 'Aprobar verificación' }));
    expect(within(identity).getByRole('alert').textContent).toBe('Escribe una nota de al menos 3 caracteres.');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(identity).getByLabelText('Nota'), {
      target: { value: 'Foto nítida, coincide con la selfie' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Aprobar verificación' }));

    expect(await screen.findByText('Decisión registrada')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      url: `${DETAIL}/verifications/${verification.id}/decision`,
      body: { status: 'APPROVED', note: 'Foto nítida, coincide con la selfie' },
    });
    // The detail is read again: the verification is no longer waiting for a person.
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Aprobar verificación' })).toBeNull());
    expect(within(identity).getByText('Aprobada')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'GET' && call.url === DETAIL)).toHaveLength(2);
  });

  it('shows the readable message of a refused action beside its form', async () => {
    open('admin', createDetail(), (call) =>
      call.method === 'POST'
        ? json(409, { code: 'NOT_UNDER_REVIEW', message: 'x', readable_message: 'Esta verificación ya fue decidida.' })
        : undefined,
    );
    const identity = await screen.findByRole('region', { name: 'Verificación de identidad' });
    fireEvent.change(within(identity).getByLabelText('Nota'), { target: { value: 'No coincide' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rechazar verificación' }));
    expect((await within(identity).findByRole('alert')).textContent).toBe('Esta verificación ya fue decidida.');
    expect(screen.queryByText('Decisión registrada')).toBeNull();
  });

  it('warns when an audit chain does not verify, and says so when it does', async () => {
    open(
      'analyst',
      createDetail({
        timeline: [
          createChain({ chain: 'application', valid: false, broken_at: 6, reason: 'hash-mismatch' }),
          createChain({ chain: 'phone' }),
        ],
      }),
    );
    const history = await screen.findByRole('region', { name: 'Historial' });
    expect(within(history).getByRole('alert').textContent).toContain(
      'La cadena de auditoría no verifica: alterada en el evento 6',
    );
    expect(within(history).getByText('Cadena de auditoría verificada (3 eventos)')).toBeTruthy();
    const rows = within(history).getAllByRole('row');
    const tampered = rows.find((row) => row.textContent?.includes('Alterado'));
    expect(tampered?.textContent).toContain('consent.given');
    expect(tampered?.textContent).toContain('step: ACCOUNT_BUREAU · n: 1');
  });

  it('shows a long chain’s newest events and loads the older ones a page at a time, the badge kept', async () => {
    const event = (id: number) => ({
      id,
      type: `step.saved.${id}`,
      actor: 'system',
      actor_name: 'Sistema',
      at: '2025-05-01T14:00:00.000Z',
      payload: { n: id },
    });
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(from + i));
    const pages: Record<string, { events: ReturnType<typeof event>[]; older_cursor: number | null }> = {
      '101': { events: range(51, 100), older_cursor: 51 },
      '51': { events: range(1, 50), older_cursor: null },
    };
    const calls = open(
      'advisor',
      createDetail({
        timeline: [
          createChain({ chain: 'application', total: 150, events: range(101, 150), older_cursor: 101 }),
          createChain({ chain: 'phone' }),
        ],
      }),
      (call) => {
        const url = new URL(call.url, 'http://localhost');
        if (url.pathname !== `${DETAIL}/timeline`) return undefined;
        expect(url.searchParams.get('chain')).toBe('application');
        const page = pages[url.searchParams.get('before')!]!;
        return json(200, { data: { chain: 'application', ...page } });
      },
    );
    const history = await screen.findByRole('region', { name: 'Historial' });
    const application = () => within(history).getByRole('table', { name: 'Cadena de la solicitud' });
    const shown = () =>
      within(application())
        .getAllByRole('row')
        .slice(1)
        .map((row) => Number(row.querySelector('th')!.textContent));
    expect(within(history).getByText('Cadena de auditoría verificada (150 eventos)')).toBeTruthy();
    expect(within(history).getByText('Se muestran los 50 eventos más recientes de 150.')).toBeTruthy();
    expect(shown()).toEqual(range(101, 150).map((e) => e.id));
    // The phone chain has nothing older: no button of its own.
    expect(within(history).getAllByRole('button', { name: 'Ver eventos anteriores' })).toHaveLength(1);

    fireEvent.click(within(history).getByRole('button', { name: 'Ver eventos anteriores' }));
    await vi.waitFor(() => expect(shown()).toEqual(range(51, 150).map((e) => e.id)));
    fireEvent.click(within(history).getByRole('button', { name: 'Ver eventos anteriores' }));
    await vi.waitFor(() => expect(shown()).toEqual(range(1, 150).map((e) => e.id)));
    expect(within(history).queryByRole('button', { name: 'Ver eventos anteriores' })).toBeNull();
    expect(within(history).getByText('Cadena de auditoría verificada (150 eventos)')).toBeTruthy();
    expect(calls.filter((call) => call.url.includes('/timeline')).map((call) => call.url)).toEqual([
      `${DETAIL}/timeline?chain=application&before=101`,
      `${DETAIL}/timeline?chain=application&before=51`,
    ]);
  });

  it('says why an older page did not load, and the button stays to try again', async () => {
    open('analyst', createDetail({ timeline: [createChain({ total: 60, older_cursor: 5 })] }), (call) =>
      call.url.includes('/timeline')
        ? json(400, {
            code: 'VALIDATION_ERROR',
            message: 'x',
            readable_message: 'Revisa los datos marcados e intenta de nuevo.',
          })
        : undefined,
    );
    const history = await screen.findByRole('region', { name: 'Historial' });
    fireEvent.click(within(history).getByRole('button', { name: 'Ver eventos anteriores' }));
    expect((await within(history).findByRole('alert')).textContent).toBe(
      'Revisa los datos marcados e intenta de nuevo.',
    );
    expect(within(history).getByRole('button', { name: 'Ver eventos anteriores' })).toBeTruthy();
  });

  const guarantor = (phone: string, others: number): ApplicationDetail['guarantors'][number] => ({
    id: `aval-${phone}`,
    aval_type: 'PARTNER',
    name: 'Pedro Aval',
    phone,
    status: 'PENDING',
    created_at: '2025-05-02T09:00:00.000Z',
    phone_other_applications: others,
  });

  it('flags a guarantor phone named on other applications too (issue 26)', async () => {
    open('advisor', createDetail({ guarantors: [guarantor('8095550101', 2), guarantor('8095550102', 0)] }));
    const avales = await screen.findByRole('region', { name: 'Avales' });
    const [shared, alone] = within(avales).getAllByRole('row').slice(1);
    expect(shared?.textContent).toContain('También aval en 2 otras solicitudes');
    expect(alone?.textContent).not.toContain('También aval');
  });

  it('names a guarantor with the surnames apart and, in Mexico, the home address the bureau files people by', async () => {
    const calls = open('analyst', createDetail({ country: 'mx' }), (call) =>
      call.method === 'POST' ? json(200, { data: {} }) : undefined,
    );
    const form = await screen.findByRole('form', { name: 'Registrar aval' });
    const fill = (label: string, value: string) =>
      fireEvent.change(within(form).getByLabelText(label), { target: { value } });
    fill('Nombre(s)', 'José Ramiro');
    fill('Apellido paterno', 'Gutiérrez');
    fill('Celular', '5512345678');
    fill('Identificación fiscal', 'GUHR800101AB1');
    fill('Domicilio: código postal', '50000');
    fill('Domicilio: estado', 'México');
    fill('Domicilio: municipio', 'Toluca');
    fill('Domicilio: colonia', 'Toluca Centro');
    fill('Domicilio: calle', 'Avenida Hidalgo');
    fill('Domicilio: número', '301');
    fireEvent.click(within(form).getByRole('button', { name: 'Registrar aval' }));
    await vi.waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      aval_type: 'PARTNER',
      name: 'José Ramiro',
      lastname: 'Gutiérrez',
      maternal_lastname: '',
      phone_number: '5512345678',
      tax_payer_id: 'GUHR800101AB1',
      address: {
        zip_code: '50000',
        state: 'México',
        city: 'Toluca',
        neighborhood: 'Toluca Centro',
        street_name: 'Avenida Hidalgo',
        street_number: '301',
      },
    });
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
    open('analyst', createDetail({ country: 'do' }));
    const dominican = await screen.findByRole('form', { name: 'Registrar aval' });
    expect(within(dominican).queryByLabelText('Domicilio: calle')).toBeNull();
  });

  it('shows the consent IP to analysts only (the API sends none to advisors)', async () => {
    const consent: ApplicationDetail['consents'][number] = {
      id: 'c1',
      person_type: 'titular',
      aval_id: null,
      created_at: '2025-05-01T14:05:00.000Z',
      ip: '198.51.100.77',
      user_agent: 'Mozilla/5.0',
      pin_verified: true,
      bureau_folio: 'PRV-20250501-ABCDEF0123',
      consent_version: '2025-05',
      consent_text_sha256: 'a'.repeat(64),
      authorized_until: '2028-05-01T14:05:00.000Z',
    };
    open('analyst', createDetail({ consents: [consent] }));
    let consents = await screen.findByRole('region', { name: 'Consentimientos' });
    expect(within(consents).getByRole('columnheader', { name: 'IP' })).toBeTruthy();
    expect(within(consents).getByText('198.51.100.77')).toBeTruthy();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
    open('advisor', createDetail({ sensitive_visible: false, consents: [{ ...consent, ip: null }] }));
    consents = await screen.findByRole('region', { name: 'Consentimientos' });
    expect(within(consents).queryByRole('columnheader', { name: 'IP' })).toBeNull();
    expect(within(consents).getByText('PRV-20250501-ABCDEF0123')).toBeTruthy();
  });

  it('offers an extra attempt only to a signer with none left and fewer than 3 extra (issue 26)', async () => {
    const exhausted = createSigner({
      name: 'Sin intentos',
      state: 'VERIFICATION_REJECTED',
      attempts_used: 4,
      attempts_left: 0,
      extra_attempts: 1,
      verifications: [],
    });
    const atLimit = createSigner({ ...exhausted, name: 'En el límite', extra_attempts: 3 });
    const withAttempts = createSigner({ ...exhausted, name: 'Con intentos', attempts_left: 1 });
    open('analyst', createDetail({ signers: [exhausted, atLimit, withAttempts] }));
    await screen.findByRole('region', { name: 'Verificación de identidad' });
    expect(screen.getByRole('button', { name: 'Dar un intento extra a Sin intentos' })).toBeTruthy();
    expect(screen.getByText('Intentos adicionales dados: 1 de 3.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Dar un intento extra a En el límite' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Dar un intento extra a Con intentos' })).toBeNull();
  });
});
