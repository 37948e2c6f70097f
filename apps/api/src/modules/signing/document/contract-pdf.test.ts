import { createHash, randomUUID } from 'node:crypto';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { createPng } from '../../../test/test-images.js';
import {
  CONTRACT_TEMPLATE_VERSIONS,
  renderSignedContract,
  renderUnsignedContract,
  sha256Hex,
  signatureSlotRect,
  type ContractDocumentInput,
  type ContractParty,
  type SignatureEvidence,
  type SignedParty,
} from './index.js';

const STANDARD_FONTS = new URL('../../../../../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url).pathname;

function createParty(overrides: Partial<ContractParty> = {}): ContractParty {
  return {
    name: 'María Altagracia Peña Rosario',
    taxId: '001-1391820-5',
    phone: '+1 809 555 0101',
    role: 'titular',
    ...overrides,
  };
}

function createContractInput(overrides: Partial<ContractDocumentInput> = {}): ContractDocumentInput {
  return {
    country: 'do',
    contractId: randomUUID(),
    issuedAt: new Date('2026-11-05T15:30:00Z'),
    lenderName: 'Provee',
    titular: createParty(),
    business: {
      name: 'Colmado La Esperanza',
      type: 'Colmado',
      address: 'Calle Duarte 14, Villa Mella, Santo Domingo Norte',
    },
    amount: 25_000,
    currency: 'DOP',
    guarantors: [
      createParty({
        name: 'Juan Carlos Rosario Díaz',
        taxId: '402-2233445-1',
        phone: '+1 829 555 0199',
        role: 'collateral',
        avalType: 'PARTNER',
      }),
    ],
    ...overrides,
  };
}

const MX = (overrides: Partial<ContractDocumentInput> = {}) =>
  createContractInput({
    country: 'mx',
    currency: 'MXN',
    titular: createParty({ name: 'Guadalupe Hernández López', taxId: 'HELG850214QX3', phone: '+52 55 1234 5678' }),
    business: { name: 'Abarrotes Lupita', type: 'Abarrotes', address: 'Av. Central 120, Iztapalapa, CDMX' },
    guarantors: [
      createParty({
        name: 'Rogelio Pérez Ruiz',
        taxId: 'PERR800101AB1',
        phone: '+52 55 8765 4321',
        role: 'collateral',
        avalType: 'COLLATERAL',
      }),
    ],
    ...overrides,
  });

function createEvidence(
  unsigned: Uint8Array,
  png: Uint8Array,
  overrides: Partial<SignatureEvidence> = {},
): SignatureEvidence {
  return {
    signedAt: new Date('2026-11-06T13:05:09.120Z'),
    ip: '152.166.4.27',
    peerIp: '10.0.3.14',
    forwardedFor: '152.166.4.27',
    userAgent:
      'Mozilla/5.0 (Linux; Android 13; SM-A145M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Mobile Safari/537.36',
    geolocation: { latitude: 18.5601, longitude: -69.8875, accuracy: 24.6 },
    phoneVerifiedAt: new Date('2026-11-06T12:58:40.000Z'),
    consentFolio: 'CONS-2026-000481',
    verification: {
      id: '6583a1f2c4e9b2001d7f3a15',
      provider: 'metamap',
      status: 'APPROVED',
      identityId: '6583a1f2c4e9b2001d7f3a13',
    },
    unsignedSha256: sha256Hex(unsigned),
    signatureSha256: sha256Hex(png),
    ...overrides,
  };
}

function createSigned(
  unsigned: Uint8Array,
  slot: number,
  overrides: Partial<SignedParty> = {},
  evidence: Partial<SignatureEvidence> = {},
): SignedParty {
  const signaturePng = overrides.signaturePng ?? createPng({ width: 480 + slot * 40, height: 160 });
  return {
    slot,
    name: slot === 0 ? 'María Altagracia Peña Rosario' : 'Juan Carlos Rosario Díaz',
    personType: slot === 0 ? 'titular' : 'collateral',
    signaturePng,
    evidence: createEvidence(unsigned, signaturePng, evidence),
    ...overrides,
  };
}

/** Text of each page as pdf.js extracts it (what a reader can select and search). */
async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
  }
  await pdf.destroy();
  return texts;
}

/** Rectangles where images are painted on a page (pdf.js operator list: transform, then paintImageXObject). */
async function paintedImages(bytes: Uint8Array, pageNumber: number) {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, verbosity: 0 }).promise;
  const ops = await (await pdf.getPage(pageNumber)).getOperatorList();
  const rects: { x: number; y: number; width: number; height: number }[] = [];
  let ctm = [1, 0, 0, 1, 0, 0];
  const stack: number[][] = [];
  ops.fnArray.forEach((fn, i) => {
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (fn === OPS.transform) {
      const [a, b, c, d, e, f] = ops.argsArray[i] as number[];
      const [A, B, C, D, E, F] = ctm as [number, number, number, number, number, number];
      ctm = [
        a! * A + b! * C,
        a! * B + b! * D,
        c! * A + d! * C,
        c! * B + d! * D,
        e! * A + f! * C + E,
        e! * B + f! * D + F,
      ];
    } else if (fn === OPS.paintImageXObject) rects.push({ x: ctm[4]!, y: ctm[5]!, width: ctm[0]!, height: ctm[3]! });
  });
  await pdf.destroy();
  return rects;
}

/** Image XObjects in a page's resources (pdf-lib). */
async function imageXObjects(bytes: Uint8Array, pageIndex: number): Promise<number> {
  const doc = await PDFDocument.load(bytes);
  const xObjects = doc.getPage(pageIndex).node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
  if (!xObjects) return 0;
  return xObjects.keys().filter((key) => {
    const stream = xObjects.lookup(key);
    return stream instanceof PDFRawStream && stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Image');
  }).length;
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('renderUnsignedContract', () => {
  it('prints the parties, the business, the amount, the clauses and the template version (DO)', async () => {
    const input = createContractInput();
    const texts = await pageTexts(await renderUnsignedContract(input));
    const all = flat(texts.join('\n'));
    expect(CONTRACT_TEMPLATE_VERSIONS.do).toBe('do-2026-11.1');
    for (const text of [
      'Contrato de crédito',
      `Plantilla de contrato versión ${CONTRACT_TEMPLATE_VERSIONS.do}`,
      input.contractId,
      'Santo Domingo, 5 de noviembre de 2026',
      'Provee',
      'María Altagracia Peña Rosario, Cédula 001-1391820-5, teléfono +1 809 555 0101',
      'Aval (socio): Juan Carlos Rosario Díaz, Cédula 402-2233445-1',
      'Colmado La Esperanza, tipo de negocio Colmado, ubicado en Calle Duarte 14',
      'RD$ 25,000.00 (veinticinco mil pesos dominicanos con 00/100)',
      // The clauses.
      'OBJETO',
      'MONTO Y DISPOSICIÓN',
      'INTERESES Y PAGOS',
      'Anexo A (tabla de amortización)',
      'OBLIGACIONES DE LOS AVALES',
      'DATOS PERSONALES Y CONSULTA AL BURÓ',
      'FIRMA ELECTRÓNICA Y EVIDENCIA',
      'LEY Y JURISDICCIÓN',
      'Santo Domingo, Distrito Nacional',
    ]) {
      expect(all).toContain(text);
    }
    texts.forEach((text, i) =>
      expect(text).toContain(
        `Contrato ${input.contractId} · Plantilla do-2026-11.1 · Página ${i + 1} de ${texts.length}`,
      ),
    );
  });

  it('México: RFC, pesos MXN, obligado solidario, tribunales de la Ciudad de México', async () => {
    const input = MX({ amount: 150_000 });
    const all = flat((await pageTexts(await renderUnsignedContract(input))).join('\n'));
    expect(CONTRACT_TEMPLATE_VERSIONS.mx).toBe('mx-2026-11.1');
    for (const text of [
      'Plantilla de contrato versión mx-2026-11.1',
      'Guadalupe Hernández López, RFC HELG850214QX3',
      'Aval (garante): Rogelio Pérez Ruiz, RFC PERR800101AB1',
      '$150,000.00 MXN (ciento cincuenta mil pesos 00/100 M.N.)',
      'Abarrotes Lupita, giro Abarrotes',
      'obligado solidario',
      'tribunales competentes de la Ciudad de México',
      'Ciudad de México, 5 de noviembre de 2026',
    ]) {
      expect(all).toContain(text);
    }
    expect(all).not.toContain('Cédula');
  });

  it('ends with a signature page: one labelled box per party, titular first', async () => {
    const input = createContractInput();
    const texts = await pageTexts(await renderUnsignedContract(input));
    const last = flat(texts.at(-1)!);
    expect(last).toContain('Firmas');
    expect(last.indexOf('Firma de EL DEUDOR')).toBeLessThan(last.indexOf('Firma del aval 1 de 1'));
    expect(last).toContain('María Altagracia Peña Rosario Titular (EL DEUDOR)');
    expect(last).toContain('Juan Carlos Rosario Díaz Aval (socio) · fiador solidario');
  });

  it('continues the signature slots on another page with 4 guarantors', async () => {
    const guarantors = ['Ana', 'Beto', 'Carla', 'Dario'].map((name, i) =>
      createParty({ name: `${name} Aval`, role: 'collateral', avalType: i % 2 ? 'COLLATERAL' : 'PARTNER' }),
    );
    const input = createContractInput({ guarantors });
    const unsigned = await renderUnsignedContract(input);
    const texts = (await pageTexts(unsigned)).map(flat);
    const [first, second] = texts.slice(-2) as [string, string];
    expect(first).toContain('Firma del aval 3 de 4');
    expect(first).not.toContain('Dario Aval');
    expect(second).toContain('Firmas (continuación)');
    expect(second).toContain('Firma del aval 4 de 4');
    expect(second).toContain('Dario Aval');
    expect(signatureSlotRect(4).page).toBe(1);
    expect(signatureSlotRect(4)).toMatchObject({ x: signatureSlotRect(0).x, y: signatureSlotRect(0).y });

    // Signing the fifth slot draws on the continuation page, inside its box.
    const signed = await renderSignedContract(
      unsigned,
      [createSigned(unsigned, 4, { name: 'Dario Aval' })],
      new Date(),
    );
    const rects = await paintedImages(signed, texts.length);
    expect(rects).toHaveLength(1);
    expectInside(rects[0]!, signatureSlotRect(4));
  });

  it('a business not yet registered and no guarantors still make a contract', async () => {
    const all = flat(
      (await pageTexts(await renderUnsignedContract(createContractInput({ business: null, guarantors: [] })))).join(
        '\n',
      ),
    );
    expect(all).toContain('El negocio: sin datos registrados.');
    expect(all).toContain('LOS AVALES: ninguno.');
    expect(all).not.toContain('Firma del aval');
  });

  it('is deterministic: the same input gives the same bytes', async () => {
    const input = createContractInput();
    const a = await renderUnsignedContract(input);
    const b = await renderUnsignedContract({ ...input, titular: { ...input.titular } });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const c = await renderUnsignedContract({ ...input, amount: 25_001 });
    expect(sha256Hex(c)).not.toBe(sha256Hex(a));
    const doc = await PDFDocument.load(a, { updateMetadata: false });
    expect(doc.getCreationDate()?.toISOString()).toBe(input.issuedAt.toISOString());
    expect(doc.getModificationDate()?.toISOString()).toBe(input.issuedAt.toISOString());
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
  });

  it('survives characters the standard fonts cannot encode', async () => {
    const ugly = 'Zoë 🙂 李小龍 ≤ O\u2019Brien\u0000\tÑúñez';
    const input = createContractInput({ titular: createParty({ name: ugly }) });
    const all = flat((await pageTexts(await renderUnsignedContract(input))).join('\n'));
    expect(all).toContain('Zoë ? ??? ? O\u2019Brien Ñúñez');
  });
});

function expectInside(
  rect: { x: number; y: number; width: number; height: number },
  box: ReturnType<typeof signatureSlotRect>,
) {
  expect(rect.x).toBeGreaterThanOrEqual(box.x);
  expect(rect.y).toBeGreaterThanOrEqual(box.y);
  expect(rect.x + rect.width).toBeLessThanOrEqual(box.x + box.width + 1e-6);
  expect(rect.y + rect.height).toBeLessThanOrEqual(box.y + box.height + 1e-6);
  expect(rect.width).toBeGreaterThan(box.width / 2); // scaled to fill, not a speck
}

describe('renderSignedContract', () => {
  it('keeps every page, draws each signature in its box and appends one evidence page per signer', async () => {
    const input = createContractInput();
    const unsigned = await renderUnsignedContract(input);
    const unsignedTexts = await pageTexts(unsigned);
    const signedAt = new Date('2026-11-06T13:10:00Z');
    const parties = [createSigned(unsigned, 1), createSigned(unsigned, 0)]; // any order
    const signed = await renderSignedContract(unsigned, parties, signedAt);
    const texts = await pageTexts(signed);

    expect(texts).toHaveLength(unsignedTexts.length + 2);
    unsignedTexts.slice(0, -1).forEach((text, i) => expect(texts[i]).toBe(text));
    const signaturePage = unsignedTexts.length; // 1-based number of the last unsigned page
    expect(flat(texts[signaturePage - 1]!)).toContain(`evidencia en la página ${signaturePage + 1}`);

    const rects = await paintedImages(signed, signaturePage);
    expect(rects).toHaveLength(2);
    expectInside(rects[0]!, signatureSlotRect(0));
    expectInside(rects[1]!, signatureSlotRect(1));
    expect(await imageXObjects(signed, signaturePage - 1)).toBe(2);
    expect(await imageXObjects(unsigned, signaturePage - 1)).toBe(0);

    const titularEvidence = flat(texts[signaturePage]!);
    const png = parties[1]!.signaturePng;
    for (const expected of [
      'Evidencia de firma',
      `Contrato núm. ${input.contractId} · plantilla do-2026-11.1`,
      'Firmante María Altagracia Peña Rosario',
      'Tipo de persona Titular',
      `Recuadro de firma 1 de 2, en la página ${signaturePage}`,
      'Fecha y hora de la firma (UTC) 2026-11-06T13:05:09.120Z UTC',
      'Dirección IP 152.166.4.27',
      // Behind the lender's proxy: the connection's own address and the chain as received (issue 26).
      'Conexión recibida desde 10.0.3.14',
      'Cadena X-Forwarded-For 152.166.4.27',
      'Agente de usuario Mozilla/5.0 (Linux; Android 13; SM-A145M)',
      'Geolocalización latitud 18.560100, longitud -69.887500, precisión 25 m',
      'Teléfono verificado el 2026-11-06T12:58:40.000Z UTC',
      'Folio de consentimiento CONS-2026-000481',
      'Verificación de identidad 6583a1f2c4e9b2001d7f3a15',
      'Proveedor de verificación metamap',
      'Estado de la verificación APPROVED',
      'Identidad en el proveedor 6583a1f2c4e9b2001d7f3a13',
      // Long labels wrap to a second line beside the value.
      `SHA-256 del documento sin ${sha256Hex(unsigned)} firmas`,
      `SHA-256 de la imagen de la firma ${sha256Hex(png)}`,
      `Contrato ${input.contractId} · Evidencia de firma · Hoja 1 de 2`,
    ]) {
      expect(titularEvidence).toContain(expected);
    }
    expect(flat(texts[signaturePage + 1]!)).toContain('Tipo de persona Aval');
    expect(await paintedImages(signed, signaturePage + 1)).toHaveLength(1); // the small copy of the signature

    const doc = await PDFDocument.load(signed, { updateMetadata: false });
    expect(doc.getModificationDate()?.toISOString()).toBe(signedAt.toISOString());
    expect(doc.getCreationDate()?.toISOString()).toBe(input.issuedAt.toISOString());
  });

  it("says 'no disponible' for what was not recorded", async () => {
    const unsigned = await renderUnsignedContract(createContractInput());
    const party = createSigned(
      unsigned,
      0,
      {},
      {
        geolocation: null,
        consentFolio: null,
        userAgent: null,
        phoneVerifiedAt: null,
        verification: null,
      },
    );
    const texts = await pageTexts(await renderSignedContract(unsigned, [party], new Date()));
    const evidence = flat(texts.at(-1)!);
    for (const label of [
      'Geolocalización',
      'Folio de consentimiento',
      'Agente de usuario',
      'Teléfono verificado el',
      'Verificación de identidad',
    ]) {
      expect(evidence).toContain(`${label} no disponible`);
    }
  });

  it('prints an ugly name and an emoji user agent without failing', async () => {
    const unsigned = await renderUnsignedContract(createContractInput());
    const party = createSigned(
      unsigned,
      0,
      { name: 'Ωmar 👩‍👩‍👧 Niño' },
      { userAgent: `Bot🚀/1.0 ≤≥ 漢字 ${'x'.repeat(3000)}` },
    );
    const texts = await pageTexts(await renderSignedContract(unsigned, [party], new Date()));
    const evidence = flat(texts.slice(-2).join('\n'));
    expect(evidence).toContain('Firmante ?mar ????? Niño');
    expect(evidence).toContain('Bot?/1.0 ?? ??');
    expect(evidence.replace('Conexión', '').match(/x+/g)?.join('').length).toBe(3000); // wrapped, nothing lost (it spans a second page)
  });

  it('refuses evidence that does not describe these bytes, and unknown or repeated slots', async () => {
    const unsigned = await renderUnsignedContract(createContractInput());
    const other = await renderUnsignedContract(createContractInput());
    await expect(renderSignedContract(unsigned, [createSigned(other, 0)], new Date())).rejects.toThrow(
      /another unsigned/,
    );
    const wrongImage = createSigned(unsigned, 0, {}, { signatureSha256: sha256Hex(new Uint8Array([1])) });
    await expect(renderSignedContract(unsigned, [wrongImage], new Date())).rejects.toThrow(/another signature/);
    await expect(renderSignedContract(unsigned, [createSigned(unsigned, 2)], new Date())).rejects.toThrow(RangeError);
    await expect(
      renderSignedContract(unsigned, [createSigned(unsigned, 0), createSigned(unsigned, 0)], new Date()),
    ).rejects.toThrow(/twice/);
    await expect(renderSignedContract(unsigned, [], new Date())).rejects.toThrow(RangeError);
    const plain = await (await PDFDocument.create()).save();
    await expect(renderSignedContract(plain, [createSigned(plain, 0)], new Date())).rejects.toThrow(/not made by/);
  });

  it('renders an unsigned and a 2-signer signed contract in about 300 ms', async () => {
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const unsigned = await renderUnsignedContract(createContractInput());
      await renderSignedContract(unsigned, [createSigned(unsigned, 0), createSigned(unsigned, 1)], new Date());
      times.push(performance.now() - started);
    }
    console.log(`contract PDF: unsigned + 2 signatures in ${times.map((t) => t.toFixed(0)).join(' / ')} ms`);
    expect(Math.min(...times)).toBeLessThan(300);
  });
});

describe('sha256Hex', () => {
  it('matches node:crypto', () => {
    const bytes = createPng({ width: 30, height: 30 });
    expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
