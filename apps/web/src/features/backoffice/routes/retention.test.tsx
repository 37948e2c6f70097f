import type { RetentionScheduleView } from '@provee/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStaff, json, renderBackoffice, stubSignedIn } from '../../../test/backoffice.js';

const schedule: RetentionScheduleView = {
  rules: [
    {
      name: 'sms-outbox-24h',
      country: null,
      position: 10,
      applies_to: 'sms-outbox',
      counted_from: 'message-sent',
      age_days: 1,
      action: 'delete-rows',
      enabled: true,
      legal_basis: 'Simulador de SMS.',
    },
    {
      name: 'phone-proof-24h',
      country: null,
      position: 15,
      applies_to: 'phone-proof',
      counted_from: 'proof-started',
      age_days: 1,
      action: 'delete-rows',
      enabled: true,
      legal_basis: 'Interés legítimo.',
    },
    {
      name: 'inactive-after-consent-365d',
      country: null,
      position: 35,
      applies_to: 'inactive-after-consent',
      counted_from: 'last-activity',
      age_days: 365,
      action: 'erase-application',
      enabled: true,
      legal_basis: 'Interés legítimo.',
    },
    {
      name: 'rejected-180d',
      country: null,
      position: 40,
      applies_to: 'rejected-application',
      counted_from: 'rejection',
      age_days: 180,
      action: 'erase-application',
      enabled: false,
      legal_basis: 'Interés legítimo.',
    },
    {
      name: 'signed-contract-legal-minimum',
      country: 'mx',
      position: 50,
      applies_to: 'signed-contract',
      counted_from: 'last-signature',
      age_days: 3653,
      action: 'erase-application',
      enabled: true,
      legal_basis: 'Código de Comercio, art. 38.',
    },
    {
      name: 'consent-record-legal-minimum',
      country: 'do',
      position: 60,
      applies_to: 'consent-records',
      counted_from: 'consent-given',
      age_days: 3653,
      action: 'clear-consent-records',
      enabled: true,
      legal_basis: 'Diez años.',
    },
  ],
  runs: [
    {
      id: 'r1',
      started_at: '2026-11-22T03:15:00.000Z',
      finished_at: '2026-11-22T03:15:04.000Z',
      counts: {
        'sms-outbox-24h': { done: 12, refused: 0, failed: 0 },
        'signed-contract-legal-minimum': { done: 1, refused: 2, failed: 0 },
      },
    },
  ],
};

describe('/backoffice/retention', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows admins each rule as people say it, and what the last runs erased per rule', async () => {
    stubSignedIn(createStaff({ role: 'admin' }), (call) =>
      call.url === '/api/backoffice/retention' ? json(200, { data: schedule }) : undefined,
    );
    renderBackoffice('/backoffice/retention');

    const rules = await screen.findByRole('table', { name: 'Reglas de conservación' });
    const rowOf = (name: string) =>
      within(rules)
        .getByRole('rowheader', { name: new RegExp(name) })
        .closest('tr')!;
    expect(within(rowOf('sms-outbox-24h')).getByText('24 horas desde el envío')).toBeTruthy();
    expect(within(rowOf('rejected-180d')).getByText('Desactivada')).toBeTruthy();
    const contract = rowOf('signed-contract-legal-minimum');
    expect(within(contract).getByText('México')).toBeTruthy();
    expect(within(contract).getByText('10 años desde la última firma')).toBeTruthy();
    // The erasure empties the contract; the consent records wait for their own rule and the screen says so.
    expect(within(contract).getByText(/los consentimientos se conservan hasta su propio plazo/)).toBeTruthy();
    const consents = rowOf('consent-record-legal-minimum');
    expect(within(consents).getByText('República Dominicana')).toBeTruthy();
    expect(within(consents).getByText('Constancias de consentimiento de solicitudes ya borradas')).toBeTruthy();
    expect(within(consents).getByText('10 años desde el consentimiento')).toBeTruthy();
    expect(within(consents).getByText('Borrar los datos personales de la constancia')).toBeTruthy();
    const inactive = rowOf('inactive-after-consent-365d');
    expect(within(inactive).getByText(/sin rechazo ni firma, inactivas/)).toBeTruthy();
    expect(within(inactive).getByText('365 días desde la última actividad')).toBeTruthy();
    const phoneProof = rowOf('phone-proof-24h');
    expect(within(phoneProof).getByText('Códigos, inicios y sesiones de verificación del celular')).toBeTruthy();
    expect(within(phoneProof).getByText('24 horas desde su creación')).toBeTruthy();

    const runs = screen.getByRole('table', { name: 'Últimas ejecuciones' });
    expect(within(runs).getByText(/: 12$/)).toBeTruthy();
    expect(within(runs).getByText(/: 1, 2 retenidas$/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Conservación' })).toBeTruthy();
  });

  it('is not offered to analysts', async () => {
    stubSignedIn(createStaff({ role: 'analyst' }), () => undefined);
    renderBackoffice('/backoffice');
    await screen.findByRole('link', { name: 'Solicitudes' });
    expect(screen.queryByRole('link', { name: 'Conservación' })).toBeNull();
  });
});
