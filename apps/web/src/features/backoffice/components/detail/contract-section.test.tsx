import type { ApplicationDetail } from '@provee/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION_ID,
  createDetail,
  createSigner,
  createStaff,
  json,
  renderBackoffice,
  stubSignedIn,
} from '../../../../test/backoffice.js';

const DETAIL = `/api/backoffice/applications/${APPLICATION_ID}`;
const LINKS = `${DETAIL}/contract-links`;
const SIGNED_AT = '2026-11-29T15:00:00.000Z';

const guarantor: ApplicationDetail['guarantors'][number] = {
  id: 'aval-1',
  aval_type: 'PARTNER',
  name: 'Pedro Aval',
  phone: '8095550101',
  status: 'ACCEPTED',
  created_at: '2026-11-20T09:00:00.000Z',
  phone_other_applications: 0,
};

function open(signed: { titular: boolean; aval: boolean }) {
  const detail = createDetail({
    guarantors: [guarantor],
    signers: [
      createSigner({ state: signed.titular ? 'SIGNED' : 'VERIFIED', signed_at: signed.titular ? SIGNED_AT : null }),
      createSigner({
        person_type: 'collateral',
        aval_id: guarantor.id,
        name: 'Pedro Aval',
        state: signed.aval ? 'SIGNED' : 'PENDING',
        signed_at: signed.aval ? SIGNED_AT : null,
      }),
    ],
  });
  const calls = stubSignedIn(createStaff({ role: 'analyst' }), (call) => {
    if (call.method === 'GET' && call.url === DETAIL) return json(200, { data: detail });
    if (call.method === 'POST' && call.url === LINKS)
      return json(201, { data: { link_id: 'l1', expires_at: '2026-12-01T00:00:00.000Z' } });
    return undefined;
  });
  renderBackoffice(`/backoffice/applications/${APPLICATION_ID}`);
  return calls;
}
const links = async () => within(await screen.findByRole('region', { name: 'Contrato' }));

describe('the contract section: signing links', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers a link to each party still to sign, and names who signed with the date instead', async () => {
    const calls = open({ titular: true, aval: false });
    const section = await links();
    expect(await section.findByText(/^El titular firmó el /)).toBeTruthy();
    expect(section.queryByRole('button', { name: 'Enviar enlace de firma al titular' })).toBeNull();
    fireEvent.click(section.getByRole('button', { name: 'Enviar enlace de firma a Pedro Aval' }));
    await vi.waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url === LINKS)).toBe(true));
    const sent = calls.find((call) => call.method === 'POST' && call.url === LINKS)!;
    expect(sent.body).toEqual({ person_type: 'collateral', aval_id: guarantor.id });
  });

  it('once everybody signed, no link is offered', async () => {
    open({ titular: true, aval: true });
    const section = await links();
    expect(await section.findByText('Todas las partes firmaron: no hace falta enviar enlaces.')).toBeTruthy();
    expect(section.getByText(/^Pedro Aval firmó el /)).toBeTruthy();
    expect(section.queryByRole('button', { name: /Enviar enlace de firma/ })).toBeNull();
  });

  it('before anybody signed, both links are offered', async () => {
    open({ titular: false, aval: false });
    const section = await links();
    expect(await section.findByRole('button', { name: 'Enviar enlace de firma al titular' })).toBeTruthy();
    expect(section.getByRole('button', { name: 'Enviar enlace de firma a Pedro Aval' })).toBeTruthy();
    expect(section.queryByText(/firmó el/)).toBeNull();
  });
});
