import type { ContractSeal } from '@provee/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION_ID,
  createDetail,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubSignedIn,
  type Call,
} from '../../../../test/backoffice.js';

const DETAIL = `/api/backoffice/applications/${APPLICATION_ID}`;
const CHECK = `${DETAIL}/contract/check`;

const seal = (overrides: Partial<ContractSeal> = {}): ContractSeal => ({
  certificate_name: 'Préstamos del Caribe sello',
  certificate_sha256: 'c'.repeat(64),
  development: false,
  sealed_at: '2026-11-29T15:00:00.000Z',
  sealed_sha256: 'a'.repeat(64),
  timestamp: {
    status: 'stamped',
    authority: 'https://tsa.example.com',
    time: '2026-11-29T15:00:02.000Z',
    serial: '01',
    attempts: 1,
  },
  nom151: { status: 'not_required', provider: null, reference: null, issued_at: null, sha256: null, certificate: null },
  ...overrides,
});

function open(contractSeal: ContractSeal | null, answer: (call: Call) => Response | undefined = () => undefined) {
  const detail = createDetail({
    contract: {
      id: 'k1',
      template_version: 'do-2025-05',
      unsigned_sha256: 'u'.repeat(64),
      signed_sha256: 'b'.repeat(64),
      created_at: '2026-11-29T14:00:00.000Z',
      seal: contractSeal,
    },
  });
  const calls = stubSignedIn(createStaff({ role: 'analyst' }), (call) =>
    call.method === 'GET' && call.url === DETAIL ? json(200, { data: detail }) : answer(call),
  );
  renderBackoffice(`/backoffice/applications/${APPLICATION_ID}`);
  return calls;
}
const section = () => screen.findByRole('region', { name: 'Contrato' });
const choose = async (name: string) => {
  const input = within(await section()).getByLabelText('Contrato en PDF');
  fireEvent.change(input, { target: { files: [new File(['%PDF-1.7'], name, { type: 'application/pdf' })] } });
  fireEvent.click(within(await section()).getByRole('button', { name: 'Revisar documento' }));
};

afterEach(() => vi.unstubAllGlobals());

describe('the contract’s seal in the back office', () => {
  it('shows who sealed it, its time-stamp and NOM-151', async () => {
    open(
      seal({
        nom151: {
          status: 'waiting',
          provider: null,
          reference: null,
          issued_at: null,
          sha256: null,
          certificate: null,
        },
      }),
    );
    const contract = await section();
    expect(within(contract).getByText(/Préstamos del Caribe sello/)).toBeTruthy();
    expect(within(contract).getByText(/Agregado: .* · https:\/\/tsa\.example\.com/)).toBeTruthy();
    expect(within(contract).getByText('En espera')).toBeTruthy();
    // The hash as sealed, before the time-stamp changed the file's.
    expect(within(contract).getByText('a'.repeat(64))).toBeTruthy();
    expect(within(contract).getByText('b'.repeat(64))).toBeTruthy();
  });

  it('a development seal and a time-stamp still waiting say so', async () => {
    open(
      seal({
        development: true,
        timestamp: { status: 'waiting', authority: null, time: null, serial: null, attempts: 3 },
      }),
    );
    const contract = await section();
    expect(within(contract).getByText('· de prueba')).toBeTruthy();
    expect(within(contract).getByText('En espera de la autoridad (3 intentos)')).toBeTruthy();
  });

  it('the simulators (outside production) are named as having no legal value', async () => {
    open(
      seal({
        development: true,
        timestamp: {
          status: 'stamped',
          authority: 'simulador',
          time: '2026-11-29T15:00:02.000Z',
          serial: '02',
          attempts: 1,
        },
        nom151: {
          status: 'issued',
          provider: 'simulador',
          reference: 'SIM-1',
          issued_at: '2026-11-29T15:00:03.000Z',
          sha256: 'd'.repeat(64),
          certificate: 'MII…',
        },
      }),
    );
    const contract = await section();
    expect(within(contract).getByText(/^Agregado: .* · simulador \(de prueba, sin validez legal\)$/)).toBeTruthy();
    expect(
      within(contract).getByText(/^Emitida: .* · simulador \(de prueba, sin validez legal\) · folio SIM-1$/),
    ).toBeTruthy();
  });

  it('checks a PDF: the server’s answer, yes or no, is shown with the file’s name', async () => {
    const calls = open(seal(), (call) =>
      call.method === 'POST' && call.url === CHECK
        ? json(200, {
            data: {
              matches: false,
              version: null,
              sha256: 'f'.repeat(64),
              seal: { intact: false, whole_document: true, ours: true, certificate_name: 'x' },
              readable_message: 'No. Este archivo fue modificado después de sellarse.',
            },
          })
        : undefined,
    );
    await choose('copia.pdf');
    expect(await within(await section()).findByText(/^No\. Este archivo fue modificado/)).toBeTruthy();
    expect(within(await section()).getByRole('status').textContent).toBe(
      'copia.pdf: No. Este archivo fue modificado después de sellarse.',
    );
    expect(calls.filter((call) => call.method === 'POST' && call.url === CHECK)).toHaveLength(1);
  });

  it('a refusal is shown in Spanish', async () => {
    open(seal(), (call) =>
      call.method === 'POST' && call.url === CHECK
        ? envelope(413, 'PAYLOAD_TOO_LARGE', 'El archivo es demasiado grande.')
        : undefined,
    );
    await choose('enorme.pdf');
    expect(await within(await section()).findByText('El archivo es demasiado grande.', { exact: false })).toBeTruthy();
    expect(within(await section()).getByRole('status').textContent).toBe('enorme.pdf: El archivo es demasiado grande.');
  });

  it('no seal yet: no check form', async () => {
    open(null);
    const contract = await section();
    expect(within(contract).queryByText('¿Es este documento el que firmamos?')).toBeNull();
  });
});
