import { formatDay, heldValueText, type PersonalDataExport, type ReaderPlace } from '@provee/domain';
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';

/**
 * "Mis datos" as a readable Spanish PDF: the same export as the JSON download, section by section,
 * one "campo: valor" per line. A few pages of text, built on the request's thread (the contract's
 * worker pool is for documents with images and signatures, decision 021).
 */
const PAGE: [number, number] = [612, 792];
const MARGIN = 56;
const WIDTH = PAGE[0] - 2 * MARGIN;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);

/** The standard fonts encode WinAnsi only: anything else (emoji, CJK) becomes '?'. */
function safe(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  return [...text.normalize('NFC')]
    .map((char) => (/\s/u.test(char) ? ' ' : supported.has(char.codePointAt(0)!) ? char : '?'))
    .join('');
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

const STATUS_LINE = (application: PersonalDataExport['application'], place: ReaderPlace) =>
  `Solicitud ${application.id} · estado ${application.status_label ?? application.status} · paso ${application.next_step_label ?? application.next_step} · iniciada el ${heldValueText(application.started_at, place)}`;

const ERASED_LINE = (day: string) =>
  `Borramos tus datos personales el ${day}. Solo conservamos lo que la ley nos obliga a guardar (el registro de tu consentimiento y, si lo hay, el contrato firmado) hasta que venza su plazo.`;

export async function renderMyDataPdf(
  data: PersonalDataExport,
  generatedOn: string,
  place: ReaderPlace,
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle('Mis datos');
  doc.setLanguage('es');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const write = (text: string, font: PDFFont, size: number, color = INK, indent = 0) => {
    for (const line of wrap(safe(text, font), font, size, WIDTH - indent)) {
      if (y < MARGIN + size) {
        page = doc.addPage(PAGE);
        y = PAGE[1] - MARGIN;
      }
      page.drawText(line, { x: MARGIN + indent, y, size, font, color });
      y -= size * 1.45;
    }
  };
  write('Mis datos', bold, 20);
  write(`Generado el ${generatedOn}: lo que guardamos sobre ti en ese momento.`, regular, 10, MUTED);
  write(STATUS_LINE(data.application, place), regular, 10, MUTED);
  if (data.application.erased_at)
    write(ERASED_LINE(formatDay(data.application.erased_at.slice(0, 10), place.locale)), regular, 10, INK);
  for (const category of data.categories) {
    y -= 10;
    write(category.label, bold, 14);
    for (const field of category.fields) {
      write(`${field.label}: ${heldValueText(field.value, place)}`, regular, 10, INK, 8);
      write(`Base legal: ${field.basis}. Conservación: ${field.retention}.`, regular, 8, MUTED, 16);
    }
  }
  return Buffer.from(await doc.save());
}
