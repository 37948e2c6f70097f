import { APPLICATION_EVENT_TYPES, type PartnerKeyView, type WebhookEndpointView } from '@provee/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createEndpoint,
  createPartnerKey,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubSignedIn,
  type Call,
} from '../../../test/backoffice.js';

const ENDPOINTS = '/api/backoffice/webhook-endpoints';
const KEYS = '/api/backoffice/partner-keys';
const SECRET = 'whsec_QmFzZTY0U2VjcmV0T25seVNob3duT25jZQ==';
const TOKEN = 'pk_live_9c1e_c2VjcmV0LXRva2VuLXNob3duLW9uY2U';

const failing = createEndpoint({
  url: 'https://erp.prestamista.example/hooks',
  description: 'ERP',
  event_types: ['application.created', 'lender_decision.recorded'],
  failing_since: '2025-05-02T08:00:00.000Z',
});
const disabled = createEndpoint({
  url: 'https://viejo.prestamista.example/hooks',
  description: '',
  enabled: false,
  disabled_at: '2025-05-06T08:00:00.000Z',
  disabled_reason: 'Sin respuesta correcta durante 5 días',
});

/** An admin on /backoffice/integrations, the lists as given, other calls to `answer`. */
function open(
  { endpoints = [], keys = [] }: { endpoints?: WebhookEndpointView[]; keys?: PartnerKeyView[] },
  answer: (call: Call) => Response | undefined = () => undefined,
) {
  const calls = stubSignedIn(createStaff({ role: 'admin' }), (call) => {
    if (call.method === 'GET' && call.url === ENDPOINTS)
      return json(200, { data: { endpoints, event_types: [...APPLICATION_EVENT_TYPES] } });
    if (call.method === 'GET' && call.url === KEYS) return json(200, { data: keys });
    return answer(call);
  });
  renderBackoffice('/backoffice/integrations');
  return calls;
}

const webhooksCard = () => screen.getByRole('region', { name: 'Webhooks' });
const keysCard = () => screen.getByRole('region', { name: 'Llaves de la API' });

describe('/backoffice/integrations', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the endpoints with their events and state, and warns at the top (and in the nav) of a disabled one', async () => {
    open({ endpoints: [createEndpoint(), failing, disabled] });
    const table = await screen.findByRole('table', { name: 'Destinos de webhooks' });
    const row = (url: string) => within(table).getByRole('rowheader', { name: url }).closest('tr')!;

    const active = row('https://sistemas.prestamista.example/webhooks/provee');
    expect(within(active).getByText('Todos')).toBeTruthy();
    expect(within(active).getByText('Activo')).toBeTruthy();
    expect(within(row(failing.url)).getByText('lender_decision.recorded')).toBeTruthy();
    expect(within(row(failing.url)).getByText(/^Fallando desde /)).toBeTruthy();
    expect(within(row(disabled.url)).getByText('Desactivado')).toBeTruthy();
    expect(within(row(disabled.url)).getByText(/Sin respuesta correcta durante 5 días/)).toBeTruthy();
    expect(within(row(disabled.url)).getByRole('button', { name: `Activar ${disabled.url}` })).toBeTruthy();

    const alert = screen.getAllByRole('alert')[0]!;
    expect(alert.textContent).toContain('Un destino de webhooks está desactivado.');
    expect(alert.textContent).toContain(`${disabled.url}: Sin respuesta correcta durante 5 días`);
    expect(screen.getByRole('link', { name: 'Integraciones 1 destino desactivado' })).toBeTruthy();
  });

  it('adds an endpoint with the event types checked, and shows its signing secret once', async () => {
    let created = false;
    const endpoint = createEndpoint({ url: 'https://nuevo.prestamista.example/hooks', event_types: ['consent.given'] });
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const calls = stubSignedIn(createStaff({ role: 'admin' }), (call) => {
      if (call.method === 'GET' && call.url === ENDPOINTS)
        return json(200, { data: { endpoints: created ? [endpoint] : [], event_types: [...APPLICATION_EVENT_TYPES] } });
      if (call.method === 'GET' && call.url === KEYS) return json(200, { data: [] });
      if (call.method === 'POST' && call.url === ENDPOINTS) {
        created = true;
        return json(200, { data: { endpoint, secret: SECRET } });
      }
      return undefined;
    });
    renderBackoffice('/backoffice/integrations');

    const form = await screen.findByRole('form', { name: 'Agregar destino' });
    fireEvent.change(within(form).getByLabelText('Dirección (URL)'), { target: { value: endpoint.url } });
    fireEvent.change(within(form).getByLabelText('Descripción'), { target: { value: 'Cobranza' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /guarantor\.named/ }));
    fireEvent.click(within(form).getByRole('checkbox', { name: /consent\.given/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Agregar destino' }));

    const dialog = await screen.findByRole('dialog', { name: 'Secreto de firma del destino' });
    expect(within(dialog).getByText(/no se volverá a mostrar/)).toBeTruthy();
    expect((within(dialog).getByLabelText('Secreto de firma') as HTMLInputElement).value).toBe(SECRET);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copiar' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await within(dialog).findByText('Copiado.')).toBeTruthy();
    // The types go in the catalogue's order, whatever the order they were checked in.
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: endpoint.url,
      description: 'Cobranza',
      event_types: ['consent.given', 'guarantor.named'],
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Ya lo guardé' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Gone from the page: the list read again never carries it.
    await within(webhooksCard()).findByRole('rowheader', { name: endpoint.url });
    expect(document.body.textContent).not.toContain(SECRET);
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('disables an endpoint, and rotates its secret with the overlap chosen, showing the new one once', async () => {
    const endpoint = createEndpoint();
    const calls = open({ endpoints: [endpoint] }, (call) => {
      if (call.method === 'PATCH') return json(200, { data: { ...endpoint, enabled: false } });
      if (call.url.endsWith('/secret')) return json(200, { data: { endpoint, secret: `${SECRET}-2` } });
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: `Desactivar ${endpoint.url}` }));
    expect(await screen.findByText(`${endpoint.url} desactivado`)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: `Cambiar secreto de ${endpoint.url}` }));
    const ask = screen.getByRole('dialog', { name: 'Cambiar el secreto de firma' });
    const hours = within(ask).getByLabelText('Horas en que el secreto anterior sigue valiendo') as HTMLInputElement;
    expect(hours.value).toBe('24');
    fireEvent.change(hours, { target: { value: '48' } });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cambiar secreto' }));

    const shown = await screen.findByRole('dialog', { name: 'Nuevo secreto de firma' });
    expect((within(shown).getByLabelText('Secreto de firma') as HTMLInputElement).value).toBe(`${SECRET}-2`);
    expect(screen.queryByRole('dialog', { name: 'Cambiar el secreto de firma' })).toBeNull();
    expect(
      calls.filter((call) => call.method !== 'GET').map(({ method, url, body }) => ({ method, url, body })),
    ).toEqual([
      { method: 'PATCH', url: `${ENDPOINTS}/${endpoint.id}`, body: { enabled: false } },
      { method: 'POST', url: `${ENDPOINTS}/${endpoint.id}/secret`, body: { overlap_hours: 48 } },
    ]);
    fireEvent.click(within(shown).getByRole('button', { name: 'Ya lo guardé' }));
    expect(screen.queryByDisplayValue(`${SECRET}-2`)).toBeNull();
  });

  it('shows a refusal of the new endpoint beside its form', async () => {
    open({}, (call) =>
      call.method === 'POST'
        ? envelope(400, 'VALIDATION_ERROR', 'Revisa los datos marcados.', [
            { field: 'body.url', message: 'La dirección debe empezar con https://.' },
          ])
        : undefined,
    );
    const form = await screen.findByRole('form', { name: 'Agregar destino' });
    fireEvent.click(within(form).getByRole('button', { name: 'Agregar destino' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('La dirección debe empezar con https://.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists the keys with their permissions in words; a new key shows its token once; revoking asks first', async () => {
    const revoked = createPartnerKey({
      name: 'Piloto',
      revoked_at: '2025-05-01T10:00:00.000Z',
      scopes: ['documents:read'],
    });
    const live = createPartnerKey({ last_used_at: '2025-05-06T09:00:00.000Z', expires_at: null });
    const calls = open({ keys: [live, revoked] }, (call) => {
      if (call.method === 'POST' && call.url === KEYS)
        return json(200, { data: { key: createPartnerKey({ name: 'Cobranza' }), token: TOKEN } });
      if (call.url.endsWith('/revoke')) return json(200, { data: { ...live, revoked_at: '2025-05-07T10:00:00.000Z' } });
      return undefined;
    });
    const table = await screen.findByRole('table', { name: 'Llaves de la API' });
    const liveRow = within(table).getByRole('rowheader', { name: live.name }).closest('tr')!;
    expect(within(liveRow).getByText('Leer solicitudes, Registrar decisiones')).toBeTruthy();
    expect(within(liveRow).getByText('Nunca')).toBeTruthy();
    expect(within(liveRow).getByText('Activa')).toBeTruthy();
    const revokedRow = within(table).getByRole('rowheader', { name: 'Piloto' }).closest('tr')!;
    expect(within(revokedRow).getByText(/^Revocada el /)).toBeTruthy();
    expect(within(revokedRow).queryByRole('button')).toBeNull();

    const form = within(keysCard()).getByRole('form', { name: 'Crear llave' });
    fireEvent.change(within(form).getByLabelText('Nombre'), { target: { value: 'Cobranza' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /Leer solicitudes/ }));
    fireEvent.change(within(form).getByLabelText('Vence en (días)'), { target: { value: '90' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Crear llave' }));
    const dialog = await screen.findByRole('dialog', { name: 'Llave «Cobranza»' });
    expect(within(dialog).getByText(/no se volverá a mostrar/)).toBeTruthy();
    expect((within(dialog).getByLabelText('Llave de la API') as HTMLInputElement).value).toBe(TOKEN);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ya lo guardé' }));

    fireEvent.click(within(form).getByRole('checkbox', { name: /Registrar decisiones/ }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'No vence (hasta que se revoque)' }));
    expect((within(form).getByLabelText('Vence en (días)') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('Nombre'), { target: { value: 'Sin fin' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Crear llave' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { name: 'Cobranza', scopes: ['applications:read'], expires_in_days: 90 },
      { name: 'Sin fin', scopes: ['decisions:write'], expires_in_days: null },
    ]);
    await screen.findByRole('dialog', { name: 'Llave «Cobranza»' });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Ya lo guardé' }));

    fireEvent.click(within(liveRow).getByRole('button', { name: `Revocar la llave ${live.name}` }));
    const confirm = screen.getByRole('dialog', { name: `¿Revocar la llave «${live.name}»?` });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(calls.some((call) => call.url.endsWith('/revoke'))).toBe(false);
    fireEvent.click(within(liveRow).getByRole('button', { name: `Revocar la llave ${live.name}` }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText(`Llave «${live.name}» revocada`)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').at(-1)).toMatchObject({ url: `${KEYS}/${live.id}/revoke` });
    // The list is read again after the revocation.
    await waitFor(() => expect(calls.filter((call) => call.url === KEYS && call.method === 'GET')).toHaveLength(4));
  });

  it('is neither offered nor read for analysts: no nav link, no call for the endpoints, and "Sin acceso" by address', async () => {
    const calls = stubSignedIn(createStaff({ role: 'analyst' }), (call) =>
      call.url.startsWith('/api/backoffice/applications')
        ? json(200, {
            data: { items: [], total: 0, total_exact: true, page_size: 25, next_cursor: null, previous_cursor: null },
          })
        : undefined,
    );
    renderBackoffice('/backoffice/integrations');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sin acceso' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Integraciones/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Solicitudes' })).toBeTruthy();
    expect(calls.some((call) => call.url.startsWith(ENDPOINTS) || call.url.startsWith(KEYS))).toBe(false);
  });
});
