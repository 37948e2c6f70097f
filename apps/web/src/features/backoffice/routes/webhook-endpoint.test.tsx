import { APPLICATION_EVENT_TYPES, type WebhookSendView } from '@provee/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION_ID,
  createEndpoint,
  createSend,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubSignedIn,
} from '../../../test/backoffice.js';

const endpoint = createEndpoint({ url: 'https://erp.prestamista.example/hooks', description: 'ERP' });
const ENDPOINTS = '/api/backoffice/webhook-endpoints';
const SENDS = `${ENDPOINTS}/${endpoint.id}/sends`;
const REPLAY = `${ENDPOINTS}/${endpoint.id}/replay`;

const failed = createSend({ sequence: 7 });
const delivered = createSend({
  type: 'application.created',
  sequence: 1,
  status: 'DELIVERED',
  attempts: 1,
  last_status_code: 204,
  last_error: null,
  delivered_at: '2025-05-01T14:00:05.000Z',
});
const pending = createSend({
  type: 'consent.given',
  sequence: 8,
  status: 'PENDING',
  attempts: 2,
  last_status_code: null,
  last_error: 'Sin respuesta en 10 s',
  next_attempt_at: '2025-05-05T10:00:00.000Z',
});

/** An admin on the endpoint's log; `replayed` answers each replay, the log after it is `after`. */
function open(replayed: number | Response, after: WebhookSendView[] = [failed, delivered, pending]) {
  let replays = 0;
  const calls = stubSignedIn(createStaff({ role: 'admin' }), (call) => {
    if (call.method === 'GET' && call.url === ENDPOINTS)
      return json(200, { data: { endpoints: [endpoint], event_types: [...APPLICATION_EVENT_TYPES] } });
    if (call.method === 'GET' && call.url === SENDS)
      return json(200, { data: replays === 0 ? [failed, delivered, pending] : after });
    if (call.method === 'POST' && call.url === REPLAY) {
      replays += 1;
      return typeof replayed === 'number' ? json(200, { data: { replayed } }) : replayed;
    }
    return undefined;
  });
  renderBackoffice(`/backoffice/integrations/endpoints/${endpoint.id}`);
  return calls;
}

const log = () => screen.findByRole('table', { name: 'Últimas entregas' });
const rowOf = (table: HTMLElement, type: string) => within(table).getByText(type).closest('tr')!;

describe('/backoffice/integrations/endpoints/:endpointId', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each send with its state in words, tries, the answer code and the last error', async () => {
    open(1);
    const table = await log();
    expect(screen.getByText(endpoint.url)).toBeTruthy();
    const failedRow = rowOf(table, 'application.step_changed');
    const cells = within(failedRow)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 7)).toEqual([
      'application.step_changed',
      APPLICATION_ID.slice(0, 8),
      '7',
      'Fallida',
      '8',
      '502',
      'El destino respondió 502 Bad Gateway',
    ]);
    expect(within(failedRow).getByRole('link').getAttribute('href')).toBe(`/backoffice/applications/${APPLICATION_ID}`);
    expect(within(rowOf(table, 'application.created')).getByText('Entregada')).toBeTruthy();
    const pendingRow = rowOf(table, 'consent.given');
    expect(within(pendingRow).getByText('Pendiente')).toBeTruthy();
    expect(within(pendingRow).getByText('Sin respuesta en 10 s')).toBeTruthy();
  });

  it("'Reenviar' sends that send's id, says so and reads the log again", async () => {
    const calls = open(1, [{ ...failed, status: 'PENDING', attempts: 0 }, delivered, pending]);
    const table = await log();
    fireEvent.click(
      within(rowOf(table, 'application.step_changed')).getByRole('button', {
        name: `Reenviar application.step_changed n.º 7 de la solicitud ${APPLICATION_ID.slice(0, 8)}`,
      }),
    );
    expect(await screen.findByText('Entrega puesta de nuevo en la cola')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ url: REPLAY, body: { send_id: failed.id } });
    await vi.waitFor(() =>
      expect(within(rowOf(table, 'application.step_changed')).getByText('Pendiente')).toBeTruthy(),
    );
    expect(calls.filter((call) => call.url === SENDS)).toHaveLength(2);
  });

  it("'Reenviar fallidas desde' sends the instant typed (with its offset) and says how many went back", async () => {
    const calls = open(3);
    await log();
    const form = screen.getByRole('form', { name: 'Reenviar fallidas' });
    fireEvent.change(within(form).getByLabelText('Reenviar fallidas desde'), { target: { value: '2025-05-01T08:30' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Reenviar fallidas' }));
    expect(await screen.findByText('3 entregas fallidas puestas de nuevo en la cola')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      url: REPLAY,
      body: { failed_since: new Date(2025, 4, 1, 8, 30).toISOString() },
    });
    await vi.waitFor(() => expect(calls.filter((call) => call.url === SENDS)).toHaveLength(2));
  });

  it('says when nothing failed since then', async () => {
    open(0);
    await log();
    const form = screen.getByRole('form', { name: 'Reenviar fallidas' });
    fireEvent.click(within(form).getByRole('button', { name: 'Reenviar fallidas' }));
    expect(await screen.findByText('Ninguna entrega fallida desde esa fecha: no se reenvió nada')).toBeTruthy();
  });

  it('shows a refused replay beside its form', async () => {
    open(envelope(404, 'ENDPOINT_NOT_FOUND', 'No encontramos ese destino.'));
    await log();
    const form = screen.getByRole('form', { name: 'Reenviar fallidas' });
    fireEvent.click(within(form).getByRole('button', { name: 'Reenviar fallidas' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('No encontramos ese destino.');
    expect(screen.queryByText(/de nuevo en la cola/)).toBeNull();
  });
});
