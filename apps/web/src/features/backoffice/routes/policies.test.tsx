import type { PolicyShadowView } from '@provee/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createPolicyDetail,
  createPolicyVersion,
  createStaff,
  json,
  renderBackoffice,
  stubSignedIn,
  type Call,
} from '../../../test/backoffice.js';

const POLICIES = '/api/backoffice/policies';
const SHADOW = '/api/backoffice/policy-shadow';

const first = createPolicyVersion({ live: false });
const second = createPolicyVersion({
  number: 2,
  label: 'v2',
  live: true,
  description: 'Dos años de antigüedad.',
  author: { id: 'a1', name: 'Ana Núñez Peña' },
  based_on_number: 1,
  published_at: '2026-11-21T10:00:00.000Z',
  published_by: 'Adela Admin',
});
const third = createPolicyVersion({
  number: 3,
  label: 'v3',
  live: false,
  shadow: true,
  author: { id: 'a1', name: 'Ana Núñez Peña' },
  published_by: 'Adela Admin',
});
const draft = createPolicyVersion({
  number: 4,
  label: 'v4',
  status: 'DRAFT',
  live: false,
  author: { id: 'a2', name: 'Luis Ortega' },
  published_at: null,
  published_by: null,
});
const discarded = createPolicyVersion({
  number: 5,
  label: 'v5',
  status: 'DISCARDED',
  live: false,
  published_at: null,
  published_by: null,
});

const noShadow: PolicyShadowView = { live: second, shadow: null, days: [] };
const withShadow: PolicyShadowView = {
  live: second,
  shadow: third,
  days: [
    { day: '2026-11-22', decisions: 40, agreed: 38, agreement_rate: 0.95 },
    { day: '2026-11-23', decisions: 12, agreed: 12, agreement_rate: 1 },
  ],
};

/** Signed in as `role` on the list; the shadow view as `shadow` says at each read, other calls to `answer`. */
function open(
  role: 'analyst' | 'admin',
  shadow: () => PolicyShadowView = () => noShadow,
  answer: (call: Call) => Response | undefined = () => undefined,
) {
  const calls = stubSignedIn(createStaff({ role }), (call) => {
    if (call.method === 'GET' && call.url === POLICIES)
      return json(200, { data: { country: 'do', versions: [discarded, draft, third, second, first] } });
    if (call.method === 'GET' && call.url === SHADOW) return json(200, { data: shadow() });
    return answer(call);
  });
  renderBackoffice('/backoffice/policies');
  return calls;
}

const rowOf = (table: HTMLElement, label: string) => within(table).getByRole('link', { name: label }).closest('tr')!;

describe('/backoffice/policies', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the versions with what each is now, who wrote and who published it', async () => {
    open('analyst');
    const table = await screen.findByRole('table', { name: 'Versiones de la política' });
    expect(within(rowOf(table, 'v2')).getByText('Vigente')).toBeTruthy();
    expect(within(rowOf(table, 'v2')).getByText('Ana Núñez Peña')).toBeTruthy();
    expect(within(rowOf(table, 'v2')).getByText('Adela Admin')).toBeTruthy();
    expect(within(rowOf(table, 'v2')).getByText('Dos años de antigüedad.')).toBeTruthy();
    expect(within(rowOf(table, 'v3')).getByText('En sombra')).toBeTruthy();
    expect(within(rowOf(table, 'v4')).getByText('Borrador')).toBeTruthy();
    expect(within(rowOf(table, 'v5')).getByText('Descartada')).toBeTruthy();
    expect(within(rowOf(table, '2026-11-01')).getByText('Publicada')).toBeTruthy();
    expect(within(rowOf(table, '2026-11-01')).getAllByText('Versión inicial')).toHaveLength(2);
    expect(rowOf(table, 'v4').querySelector('td:last-child')?.textContent).toBe('—');
    expect(screen.getByRole('link', { name: 'Política de crédito' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('region', { name: 'Versión en sombra' }).textContent).toContain('Ninguna versión corre');
  });

  it("'Nuevo borrador' begins one from the live version and opens it", async () => {
    const created = createPolicyDetail({ id: '7d1e2c3b-0000-4000-8000-000000000077', label: 'v6' });
    const calls = open('analyst', undefined, (call) => {
      if (call.method === 'POST' && call.url === POLICIES) return json(201, { data: created });
      if (call.method === 'GET' && call.url === `${POLICIES}/${created.id}`) return json(200, { data: created });
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Nuevo borrador' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Versión v6' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe(`/backoffice/policies/${created.id}`);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({});
  });

  it('shows the shadow version’s daily agreement, and lets an admin stop it', async () => {
    let shadow = withShadow;
    const calls = open(
      'admin',
      () => shadow,
      (call) => {
        if (call.method === 'PUT' && call.url === SHADOW) {
          shadow = noShadow;
          return json(200, { data: shadow });
        }
        return undefined;
      },
    );
    const card = await screen.findByRole('region', { name: 'Versión en sombra' });
    await within(card).findByRole('table');
    expect(card.textContent).toContain('v3 corre en sombra junto a la vigente (v2).');
    const days = within(card).getByRole('table', { name: 'Coincidencia diaria de v3 con v2' });
    const rows = within(days).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.children].slice(1).map((cell) => cell.textContent))).toEqual([
      ['40', '38', expect.stringMatching(/^95\s?%$/)],
      ['12', '12', expect.stringMatching(/^100\s?%$/)],
    ]);

    fireEvent.click(within(card).getByRole('button', { name: 'Dejar de correr en sombra' }));
    const dialog = screen.getByRole('dialog', { name: '¿Dejar de correr v3 en sombra?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dejar de correr en sombra' }));
    expect(await screen.findByText('v3 ya no corre en sombra')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ policy_id: null });
    // Read again once stopped.
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Versión en sombra' }).textContent).toContain('Ninguna versión corre'),
    );
  });

  it('offers analysts no way to stop the shadow run', async () => {
    open('analyst', () => withShadow);
    const card = await screen.findByRole('region', { name: 'Versión en sombra' });
    await within(card).findByRole('table');
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('is not offered to advisors', async () => {
    stubSignedIn(createStaff({ role: 'advisor' }), () => undefined);
    renderBackoffice('/backoffice/policies');
    expect(await screen.findByRole('heading', { name: 'Sin acceso' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Política de crédito' })).toBeNull();
  });
});
