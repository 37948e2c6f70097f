import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { openApplicationByPhone, logInToBackoffice } from './backoffice-desk.js';
import { seedUser, uniqueCedula, uniquePhone } from './helpers.js';

/**
 * Issue 30, the lender's own systems: an admin adds a webhook destination in the back office and
 * sees its deliveries. The receiver is the lender's, written as its documentation says: a real
 * HTTP server that verifies every request with the Standard Webhooks reference library (never the
 * product's code), with the secret the admin copied from the dialog that shows it once.
 */

interface Received {
  verified: boolean;
  id: string;
  event: { id: string; type: string; application_id: string; sequence: number; data: Record<string, unknown> } | null;
}

/** The lender's receiver on 127.0.0.1 (test mode lets an endpoint point there): 204 verified, 400 otherwise. */
async function startLenderReceiver() {
  const received: Received[] = [];
  let secret: string | null = null;
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const header = (name: string) => String((request.headers as IncomingHttpHeaders)[name] ?? '');
    const headers = {
      'webhook-id': header('webhook-id'),
      'webhook-timestamp': header('webhook-timestamp'),
      'webhook-signature': header('webhook-signature'),
    };
    let event: Received['event'] = null;
    try {
      event = JSON.parse(body) as Received['event'];
    } catch {
      // not JSON: unverified all the same
    }
    let verified = false;
    try {
      if (secret) {
        new Webhook(secret).verify(body, headers);
        verified = true;
      }
    } catch {
      verified = false;
    }
    received.push({ verified, id: headers['webhook-id'], event });
    response.writeHead(verified ? 204 : 400, { connection: 'close' }).end(verified ? undefined : 'bad signature');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/provee/webhooks`,
    /** The secret as the lender pasted it into its system. */
    useSecret(value: string) {
      secret = value;
    },
    of: (applicationId: string) => received.filter((item) => item.event?.application_id === applicationId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * After a failure half-way, the destination is switched off through the API with the admin's
 * session (the browser's cookies), so nothing keeps sending to a receiver that stopped.
 */
async function switchOffAfterFailure(admin: Page, url: string): Promise<void> {
  const list = await admin.request.get('/api/backoffice/webhook-endpoints');
  if (!list.ok()) return;
  const { data } = (await list.json()) as { data: { endpoints: { id: string; url: string; enabled: boolean }[] } };
  for (const endpoint of data.endpoints.filter((item) => item.url === url && item.enabled))
    await admin.request.patch(`/api/backoffice/webhook-endpoints/${endpoint.id}`, { data: { enabled: false } });
}

test('an admin adds a webhook destination and sees a delivery the lender’s receiver verified', async ({
  page: admin,
}) => {
  test.setTimeout(120_000);
  const receiver = await startLenderReceiver();
  let switchedOff = false;
  try {
    await logInToBackoffice(admin, 'admin');
    await admin.getByRole('link', { name: 'Integraciones' }).click();
    await expect(admin).toHaveURL(/\/backoffice\/integrations$/);
    await expect(admin.getByRole('heading', { name: 'Integraciones', level: 1 })).toBeVisible();

    // A destination for the lender's decisions only (the other tests' applications stay out of its log).
    const form = admin.getByRole('form', { name: 'Agregar destino' });
    await form.getByLabel('Dirección (URL)').fill(receiver.url);
    await form.getByLabel('Descripción').fill('Sistema de cartera del prestamista (prueba e2e)');
    await form.getByRole('checkbox', { name: /Decisión del prestamista/ }).check();
    await form.getByRole('button', { name: 'Agregar destino' }).click();

    // The secret, shown once: the lender's systems get it from here.
    const dialog = admin.getByRole('dialog', { name: 'Secreto de firma del destino' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(receiver.url);
    await expect(dialog).toContainText('no se volverá a mostrar');
    const secret = await dialog.getByLabel('Secreto de firma').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{24,}$/);
    receiver.useSecret(secret);
    await dialog.getByRole('button', { name: 'Ya lo guardé' }).click();
    await expect(dialog).toHaveCount(0);
    // Not on the page any more once closed (nor anywhere the list shows).
    await expect(admin.getByText(secret)).toHaveCount(0);
    await expect(admin.getByRole('status').filter({ hasText: `Destino ${receiver.url} agregado` })).toBeVisible();
    const row = admin.getByRole('row').filter({ hasText: receiver.url });
    await expect(row).toContainText('lender_decision.recorded');
    await expect(row).toContainText('Activo');
    await expectAccessible(admin);
    await screenshot(admin, 'backoffice-integrations');

    // Something happens to an application: the admin records the lender's decline of one waiting for it.
    const phone = uniquePhone();
    const userId = await seedUser(admin.request, {
      phone,
      nextStep: 'PENDING_APPROVAL',
      taxId: uniqueCedula(),
    });
    await openApplicationByPhone(admin, phone, /María José Peña/);
    const decision = admin.getByRole('region', { name: 'Decisión del prestamista' });
    const decline = decision.getByRole('form', { name: 'Rechazar' });
    const reason = 'Capacidad de pago insuficiente según el análisis interno';
    await decline.getByLabel('Motivo del rechazo').fill(reason);
    await decline.getByRole('button', { name: 'Rechazar' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Rechazo del prestamista registrado' })).toBeVisible();
    await expect(decision.getByRole('row').filter({ hasText: 'Rechazado' })).toContainText(reason);

    // The lender's receiver got it, signed with the secret the admin handed over.
    await expect
      .poll(() => receiver.of(userId).filter((item) => item.verified).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const delivered = receiver.of(userId);
    expect(delivered.filter((item) => !item.verified)).toEqual([]);
    expect(delivered.map((item) => item.event!.type)).toEqual(['lender_decision.recorded']);
    expect(delivered[0]!.event!.data).toMatchObject({ outcome: 'DECLINED', reason });
    expect(delivered[0]!.id).toBe(delivered[0]!.event!.id);

    // The destination's log: the delivery, 'Entregada' (read again until the send is recorded).
    await admin.getByRole('link', { name: 'Integraciones' }).click();
    await admin.getByRole('link', { name: `Entregas a ${receiver.url}` }).click();
    await expect(admin).toHaveURL(/\/backoffice\/integrations\/endpoints\/[0-9a-f-]{36}$/);
    await expect(admin.getByRole('heading', { name: 'Entregas del webhook' })).toBeVisible();
    const send = admin.getByRole('row').filter({ hasText: userId.slice(0, 8) });
    await expect(async () => {
      await admin.reload();
      await expect(send).toContainText('Entregada', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(send).toContainText('lender_decision.recorded');
    // Its columns after the creation time: event, application, sequence, state, tries, answer.
    await expect(send.getByRole('cell').nth(4)).toHaveText('1');
    await expect(send.getByRole('cell').nth(5)).toHaveText('204');
    await expectAccessible(admin);
    await screenshot(admin, 'backoffice-webhook-deliveries');

    // Leaves nothing sending to a receiver that stops with the test: the admin switches the destination off.
    await admin.getByRole('link', { name: '← Integraciones' }).click();
    await admin.getByRole('button', { name: `Desactivar ${receiver.url}` }).click();
    await expect(admin.getByRole('status').filter({ hasText: `${receiver.url} desactivado` })).toBeVisible();
    await expect(admin.getByRole('row').filter({ hasText: receiver.url })).toContainText('Desactivado');
    switchedOff = true;
  } finally {
    if (!switchedOff) await switchOffAfterFailure(admin, receiver.url).catch(() => undefined);
    await receiver.close();
  }
});
