import { rgb, type PDFDocument, type PDFPage } from 'pdf-lib';
import type { ContractInfo } from './info.js';
import { CONTENT_WIDTH, drawLine, Flow, MARGIN, MUTED, type Fonts } from './layout.js';
import { drawSignature, type SignatureImage } from './signature-image.js';
import { wrapText } from './text.js';
import type { SignatureEvidence, SignedParty } from './types.js';

const NOT_AVAILABLE = 'no disponible';
const LABEL_WIDTH = 150;
const utc = (date: Date) => `${date.toISOString()} UTC`;

function geolocationText(geo: Record<string, unknown> | null): string {
  if (!geo) return NOT_AVAILABLE;
  const pick = (...keys: string[]) =>
    keys.map((key) => geo[key]).find((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const lat = pick('latitude', 'lat');
  const lon = pick('longitude', 'lon', 'lng');
  const accuracy = pick('accuracy', 'precision');
  if (lat === undefined || lon === undefined) {
    // Never drop what was recorded: print it as stored.
    let raw: string;
    try {
      raw = JSON.stringify(geo).slice(0, 400);
    } catch {
      raw = '?';
    }
    return `sin latitud y longitud (${raw})`;
  }
  const precision = accuracy === undefined ? NOT_AVAILABLE : `${Math.round(accuracy)} m`;
  return `latitud ${lat.toFixed(6)}, longitud ${lon.toFixed(6)}, precisión ${precision}`;
}

type Row = [label: string, value: string, mono?: boolean];

function rows(party: SignedParty, info: ContractInfo, signaturePageNumber: number): Row[] {
  const e: SignatureEvidence = party.evidence;
  const v = e.verification;
  return [
    ['Firmante', party.name],
    ['Tipo de persona', party.personType === 'titular' ? 'Titular' : 'Aval'],
    ['Recuadro de firma', `${party.slot + 1} de ${info.slotCount}, en la página ${signaturePageNumber}`],
    ['Fecha y hora de la firma (UTC)', utc(e.signedAt)],
    ['Dirección IP', e.ip],
    ['Conexión recibida desde', e.peerIp ?? NOT_AVAILABLE],
    ['Cadena X-Forwarded-For', e.forwardedFor ?? (e.peerIp ? 'ninguna' : NOT_AVAILABLE)],
    ['Agente de usuario', e.userAgent ?? NOT_AVAILABLE],
    ['Geolocalización', geolocationText(e.geolocation)],
    ['Teléfono verificado el', e.phoneVerifiedAt ? utc(e.phoneVerifiedAt) : NOT_AVAILABLE],
    ['Folio de consentimiento', e.consentFolio ?? NOT_AVAILABLE],
    ...((v
      ? [
          ['Verificación de identidad', v.id],
          ['Proveedor de verificación', v.provider],
          ['Estado de la verificación', v.status],
          ['Identidad en el proveedor', v.identityId ?? NOT_AVAILABLE],
        ]
      : [['Verificación de identidad', NOT_AVAILABLE]]) satisfies Row[]),
    ['SHA-256 del documento sin firmas', e.unsignedSha256, true],
    ['SHA-256 de la imagen de la firma', e.signatureSha256, true],
    ['Último registro de auditoría al firmar (SHA-256)', e.auditChainHead ?? NOT_AVAILABLE, true],
  ];
}

/** Draws `image` as large as fits in the box, keeping its proportions, centred. */
export function drawFitted(
  page: PDFPage,
  image: SignatureImage,
  box: { x: number; y: number; width: number; height: number },
) {
  const pad = 4;
  const scale = Math.min((box.width - 2 * pad) / image.width, (box.height - 2 * pad) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  drawSignature(page, image, {
    x: box.x + (box.width - width) / 2,
    y: box.y + (box.height - height) / 2,
    width,
    height,
  });
}

/** One party's evidence, from a new page (continuing on more pages if a long user agent needs them). */
export function drawEvidence(
  doc: PDFDocument,
  fonts: Fonts,
  party: SignedParty,
  image: SignatureImage,
  info: ContractInfo,
  signaturePageNumber: number,
): PDFPage[] {
  const flow = new Flow(doc);
  flow.text('Evidencia de firma', { font: fonts.bold, size: 16, lineHeight: 22 });
  flow.text(`Contrato núm. ${info.contractId} · plantilla ${info.templateVersion}`, {
    font: fonts.regular,
    size: 9,
    color: MUTED,
  });
  flow.space(10);
  for (const [label, value, mono] of rows(party, info, signaturePageNumber)) {
    const valueStyle = mono ? { font: fonts.mono, size: 8.5 } : { font: fonts.regular, size: 9.5 };
    const labels = wrapText(label, fonts.bold, 9, LABEL_WIDTH - 8);
    const values = wrapText(value, valueStyle.font, valueStyle.size, CONTENT_WIDTH - LABEL_WIDTH);
    const lineHeight = 13;
    for (let i = 0; i < Math.max(labels.length, values.length); i++) {
      flow.ensure(lineHeight);
      flow.space(lineHeight);
      const baseline = flow.y + 3;
      if (labels[i]) drawLine(flow.page, labels[i]!, MARGIN.left, baseline, { font: fonts.bold, size: 9 });
      if (values[i]) drawLine(flow.page, values[i]!, MARGIN.left + LABEL_WIDTH, baseline, valueStyle);
    }
    flow.space(3);
  }
  flow.ensure(110);
  flow.space(14);
  drawLine(flow.page, 'Firma', MARGIN.left, flow.y, { font: fonts.bold, size: 9 });
  const box = { x: MARGIN.left + LABEL_WIDTH, y: flow.y - 80, width: 220, height: 84 };
  flow.page.drawRectangle({ ...box, borderColor: rgb(0.75, 0.75, 0.8), borderWidth: 0.5 });
  drawFitted(flow.page, image, box);
  flow.space(100);
  flow.text(
    `Esta página forma parte del contrato núm. ${info.contractId}. El documento sin firmas cuya huella SHA-256 se ` +
      'indica arriba es el que el firmante revisó y firmó; la imagen es la firma que trazó en la pantalla de su ' +
      'dispositivo, con la huella SHA-256 indicada. El registro de auditoría de la solicitud, encadenado por huellas, ' +
      'tenía como último registro el indicado arriba cuando el firmante firmó.',
    { font: fonts.regular, size: 8.5, color: MUTED },
  );
  return flow.pages;
}
