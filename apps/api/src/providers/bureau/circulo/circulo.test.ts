// The adapter against a stand-in for Círculo over real HTTP (apps/api/test/stand-ins/circulo),
// and the published sample answer (fixtures/rcc-sample-sesentaydos.json: genera-reporte-RCC
// `Main.java`, APIHub-CdC) through the report's reader.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCirculoStandIn, type CirculoStandIn } from '../../../../test/stand-ins/circulo/server.js';
import { BureauError, BureauIntegrityError, BureauRefusedError } from '../bureau-error.js';
import { createCirculoClient, type CirculoClientOptions, type SustitucionNipPeticion } from './client.js';
import { circuloText, personaPeticion, type CirculoSubject } from './persona.js';
import { normaliseReport, parseRespuesta, reportIsAbout } from './report.js';
import { signBody, verifyBody } from './signature.js';
import { auditState, circuloState } from './states.js';

const keyPair = () => generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
const lender = keyPair();
const circulo = keyPair();
const stranger = keyPair();
const credentials = { apiKey: 'test-api-key', username: 'NGA9915CC5', password: 'test-password' };

const subject = (rfc: string, changes: Partial<CirculoSubject> = {}): CirculoSubject => ({
  givenNames: 'María José',
  paternalSurname: 'Núñez',
  maternalSurname: 'Peña',
  birthDate: '1980-01-01',
  rfc,
  address: {
    street: 'Av. Insurgentes 1001',
    neighborhood: 'Ciudad Satélite',
    municipality: 'Naucalpan de Juárez',
    city: 'Naucalpan',
    state: 'MEX',
    postcode: '53100',
  },
  ...changes,
});
const persona = (rfc: string, changes?: Partial<CirculoSubject>) =>
  personaPeticion(subject(rfc, changes), { missingSurname: 'NO PROPORCIONADO' });
const signal = () => AbortSignal.timeout(5_000);

describe('the x-signature of Círculo’s clients', () => {
  const body = Buffer.from('{"primerNombre":"JUAN"}');

  it('verifies a signature of exactly these bytes, in either hex case', () => {
    const signature = signBody(body, lender.privateKey);
    expect(signature).toMatch(/^30[0-9a-f]+$/); // hex of a DER SEQUENCE
    expect(verifyBody(body, signature, lender.publicKey)).toBe(true);
    expect(verifyBody(body, signature.toUpperCase(), lender.publicKey)).toBe(true);
  });

  it('refuses another byte, another key, a missing, repeated or malformed header', () => {
    const signature = signBody(body, lender.privateKey);
    const changed = Buffer.from(body);
    changed[3]! ^= 1;
    expect(verifyBody(changed, signature, lender.publicKey)).toBe(false);
    expect(verifyBody(body, signature, circulo.publicKey)).toBe(false);
    for (const header of [undefined, null, '', 'zz', `${signature}0`, [signature, signature], '3000'])
      expect(verifyBody(body, header, lender.publicKey)).toBe(false);
  });
});

describe('PersonaPeticion from our subject', () => {
  it('writes names and address as Círculo files them: upper case, no accents, no punctuation', () => {
    expect(persona('NUPM800101AB1')).toEqual({
      apellidoPaterno: 'NUNEZ',
      apellidoMaterno: 'PENA',
      primerNombre: 'MARIA',
      segundoNombre: 'JOSE',
      fechaNacimiento: '1980-01-01',
      RFC: 'NUPM800101AB1',
      nacionalidad: 'MX',
      domicilio: {
        direccion: 'AV. INSURGENTES 1001',
        coloniaPoblacion: 'CIUDAD SATELITE',
        delegacionMunicipio: 'NAUCALPAN DE JUAREZ',
        ciudad: 'NAUCALPAN',
        estado: 'MEX',
        CP: '53100',
      },
    });
  });

  it('sends the configured value for a missing second surname, and a street without number as two words', () => {
    const one = persona('NUPM800101AB1', {
      maternalSurname: null,
      address: { ...subject('x').address, street: 'Juárez', neighborhood: null },
    });
    expect(one.apellidoMaterno).toBe('NO PROPORCIONADO');
    expect(one.domicilio.direccion).toBe('JUAREZ SN');
    expect(one.domicilio).not.toHaveProperty('coloniaPoblacion');
    expect(circuloText('  Ñandú, ¿qué?  ', 30)).toBe('NANDU QUE');
    expect(circuloText('x'.repeat(40), 30)).toHaveLength(30);
  });

  it('maps INEGI states to Círculo’s codes, and to the NIP audit’s own list', () => {
    expect(circuloState('15')).toBe('MEX');
    expect(circuloState('09')).toBe('CDMX');
    expect(circuloState('33')).toBeUndefined();
    expect(auditState('MEX')).toBe('EM');
    expect(auditState('JAL')).toBe('JAL');
  });
});

describe('the published sample answer', () => {
  const sample = JSON.parse(
    readFileSync(new URL('./fixtures/rcc-sample-sesentaydos.json', import.meta.url), 'utf8'),
  ) as unknown;

  it('reads numbers sent as strings, open and past-due accounts, the FICO Score and recent inquiries', () => {
    const answer = parseRespuesta(sample);
    expect(answer).not.toBeNull();
    expect(normaliseReport(answer!, new Date('2020-07-01T00:00:00Z'))).toEqual({
      folio: '19698610',
      scores: { FICO: 720 },
      score: 720,
      scoreReasons: ['D2', 'P9', 'K0', 'E0'],
      openAccounts: 4,
      accountsPastDue: 1,
      // peorAtraso says 2, but 4 payments are missed now: the worst delay is at least those (4 × 30 days).
      worstPastDueDelayDays: 120,
      worstDelayDays: 120,
      inquiries: { last3Months: 1, last6Months: 1, last12Months: 1 },
      preventionKeys: ['IA', 'LS', 'CC', 'CA'],
      messages: ['No se obtuvo respuesta de otras SIC´s'],
    });
  });

  it('is not a report without a folio, and a score outside 300–850 is an exclusion', () => {
    expect(parseRespuesta({ creditos: [] })).toBeNull();
    const excluded = parseRespuesta({ folioConsulta: '1', scores: [{ nombreScore: 'FICO', valor: -9 }] })!;
    expect(normaliseReport(excluded, new Date()).score).toBeNull();
  });

  it('an empty amount is unknown, not zero; a numeric folio is read; a past-due account that says no delay fails closed', () => {
    const answer = parseRespuesta({
      folioConsulta: 19698610,
      creditos: [{ saldoVencido: '350', numeroPagosVencidos: '', peorAtraso: null, pagoActual: '--' }],
    })!;
    expect(answer.folioConsulta).toBe('19698610');
    expect(answer.creditos![0]!.numeroPagosVencidos).toBeNull();
    expect(normaliseReport(answer, new Date())).toMatchObject({ accountsPastDue: 1, worstPastDueDelayDays: null });
  });

  it('a report is about the person asked only when its RFC and birth date say so', () => {
    const sent = { RFC: 'SEPJ650809JG1', apellidoPaterno: 'SESENTAYDOS', fechaNacimiento: '1965-08-09' };
    const answer = parseRespuesta(sample)!;
    expect(reportIsAbout(answer, sent)).toBe(true);
    // Círculo may hold another homoclave: the RFC's first ten characters name the person.
    expect(reportIsAbout(answer, { ...sent, RFC: 'SEPJ650809XXX' })).toBe(true);
    expect(reportIsAbout(answer, { ...sent, RFC: 'NUPM800101AB1' })).toBe(false);
    expect(reportIsAbout(answer, { ...sent, fechaNacimiento: '1965-08-10' })).toBe(false);
    expect(reportIsAbout(parseRespuesta({ folioConsulta: '1' })!, sent)).toBe(false);
  });
});

describe('the adapter against the stand-in, over HTTP', () => {
  let standIn: CirculoStandIn;
  const client = (changes: Partial<CirculoClientOptions> = {}) =>
    createCirculoClient({
      baseUrl: standIn.url,
      ...credentials,
      privateKey: lender.privateKey,
      circuloKey: circulo.publicKey,
      productPath: '/v2/rccficoscore',
      clock: () => new Date(),
      ...changes,
    });
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BureauRefusedError);
    return error as BureauRefusedError;
  };

  beforeAll(async () => {
    standIn = await startCirculoStandIn({
      lenderKey: lender.publicKey,
      ownKey: circulo.privateKey,
      wrongKey: stranger.privateKey,
      credentials,
    });
  });
  afterAll(() => standIn.close());

  it('a good person: a signed report, read into the policy’s inputs, the raw answer kept', async () => {
    const answer = await client().report(persona('NUPM800101AB1'), signal());
    expect(answer.kind).toBe('report');
    if (answer.kind !== 'report') return;
    expect(answer.report).toMatchObject({ score: 720, openAccounts: 2, accountsPastDue: 0, worstPastDueDelayDays: 0 });
    expect(answer.report.inquiries).toEqual({ last3Months: 1, last6Months: 1, last12Months: 2 });
    expect(JSON.parse(answer.raw.toString('utf8'))).toMatchObject({ folioConsulta: answer.report.folio });
    expect(standIn.queries.get(answer.report.folio)?.body).toMatchObject({
      primerNombre: 'MARIA',
      RFC: 'NUPM800101AB1',
    });
  });

  it('past due, low score and thin file come back as the stand-in’s persons say', async () => {
    const pastDue = await client().report(persona('NUPM800102AB1'), signal());
    expect(pastDue.kind === 'report' && pastDue.report).toMatchObject({
      accountsPastDue: 1,
      worstPastDueDelayDays: 90,
    });
    const low = await client().report(persona('NUPM800104AB1'), signal());
    expect(low.kind === 'report' && low.report.score).toBe(560);
    expect(await client().report(persona('NUPM800103AB1'), signal())).toEqual({ kind: 'no-record' });
  });

  it('a signed answer about another person (a replay) is never this person’s report', async () => {
    await expect(client().report(persona('NUPM800110AB1'), signal())).rejects.toThrow(/no es de la persona consultada/);
    await expect(client().report(persona('NUPM800110AB1'), signal())).rejects.toBeInstanceOf(BureauIntegrityError);
  });

  it('a redirect is never followed (it would carry the credentials elsewhere)', async () => {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const elsewhere = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.writeHead(request.url === '/moved' ? 200 : 302, { location: '/moved' }).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const { port } = elsewhere.address() as { port: number };
    await expect(
      client({ baseUrl: `http://127.0.0.1:${port}` }).report(persona('NUPM800101AB1'), signal()),
    ).rejects.toBeInstanceOf(BureauError);
    expect(seen).toEqual(['/v2/rccficoscore']);
    await new Promise((resolve) => elsewhere.close(resolve));
  });

  it('an answer signed with another key is never read: an integrity failure', async () => {
    await expect(client().report(persona('NUPM800109AB1'), signal())).rejects.toBeInstanceOf(BureauIntegrityError);
    // The same answer verified with the key that signed it would have been a report.
    const trusting = client({ circuloKey: stranger.publicKey });
    expect((await trusting.report(persona('NUPM800109AB1'), signal())).kind).toBe('report');
  });

  it('429 and 503 are worth a retry, and the next try answers', async () => {
    await expect(client().report(persona('NUPM800107AB1'), signal())).rejects.toBeInstanceOf(BureauError);
    expect((await client().report(persona('NUPM800107AB1'), signal())).kind).toBe('report');
    await expect(client().report(persona('NUPM800108AB1'), signal())).rejects.toBeInstanceOf(BureauError);
    expect((await client().report(persona('NUPM800108AB1'), signal())).kind).toBe('report');
  });

  it('400, 401 and 403 are refusals for good, with Círculo’s codes', async () => {
    expect((await refusal(client().report(persona('NUPM800105AB1'), signal()))).status).toBe(403);
    expect((await refusal(client().report(persona('NUPM800106AB1'), signal()))).codes[0]?.codigo).toBe('401.4');
    const wrongKey = await refusal(
      client({ privateKey: stranger.privateKey }).report(persona('NUPM800101AB1'), signal()),
    );
    expect(wrongKey.codes).toEqual([{ codigo: '403.1', mensaje: 'No se pudo verificar la firma de la petición.' }]);
    expect(
      (await refusal(client({ apiKey: 'other' }).report(persona('NUPM800101AB1'), signal()))).codes[0]?.codigo,
    ).toBe('401.1');
    const outOfState = persona('NUPM800101AB1', { address: { ...subject('x').address, postcode: '44100' } });
    const badPostcode = await refusal(client().report(outOfState, signal()));
    expect(badPostcode.status).toBe(400);
    expect(badPostcode.codes.map((code) => code.mensaje)).toEqual(['El campo "CP" no es válido.']);
  });

  it('the sandbox path and an unreachable host', async () => {
    expect((await client({ baseUrl: `${standIn.url}/sandbox` }).report(persona('NUPM800101AB1'), signal())).kind).toBe(
      'report',
    );
    await expect(
      client({ baseUrl: 'http://127.0.0.1:9' }).report(persona('NUPM800101AB1'), signal()),
    ).rejects.toBeInstanceOf(BureauError);
  });

  it('the NIP audit of a folio: accepted once, refused again and for a folio never issued', async () => {
    const answer = await client().report(persona('NUPM800101AB1'), signal());
    if (answer.kind !== 'report') throw new Error('expected a report');
    const request: SustitucionNipPeticion = {
      folioCDC: Number(answer.report.folio),
      fechaConsulta: '2026/11/25',
      horaConsulta: '10/12/35',
      tipoConsulta: 'PF',
      usuario: credentials.username,
      fechaAprobacionConsulta: '2026/11/25',
      horaAprobacionConsulta: '10/12/30',
      ingresoNuevamenteNIP: true,
      respuestaLeyendaAutorizacion: true,
      aceptaTerminosCondiciones: true,
      numeroFirma: '4821',
      persona: {
        primerNombre: 'MARIA',
        apellidoPaterno: 'NUNEZ',
        apellidoMaterno: 'PENA',
        RFC: 'NUPM800101AB1',
        domicilio: { calleNumero: 'AV. INSURGENTES 1001', estado: auditState('MEX') },
      },
    };
    expect(await client().auditNip(request, signal())).toBe(Number(answer.report.folio));
    expect((await refusal(client().auditNip(request, signal()))).codes[0]?.codigo).toBe('400.6');
    expect((await refusal(client().auditNip({ ...request, folioCDC: 1 }, signal()))).status).toBe(404);
    expect(standIn.audits).toHaveLength(1);
  });
});
