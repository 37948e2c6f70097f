import { rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { pdfSafe, wrapText } from './text.js';

/**
 * Page geometry shared by the unsigned and the signed render. US Letter with margins wide enough
 * that a print scaled to A4 (97 %) keeps every line readable.
 */
export const PAGE_SIZE: [number, number] = [612, 792];
export const MARGIN = { left: 64, right: 64, top: 64, bottom: 72 };
export const CONTENT_WIDTH = PAGE_SIZE[0] - MARGIN.left - MARGIN.right;
const FOOTER_Y = 36;
export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.38, 0.38, 0.42);

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const [regular, bold, mono] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.Courier),
  ]);
  return { regular, bold, mono };
}

export interface TextStyle {
  font: PDFFont;
  size: number;
  lineHeight?: number;
  color?: ReturnType<typeof rgb>;
}

/** Draws one line made safe for the font (see text.ts). */
export function drawLine(page: PDFPage, text: string, x: number, y: number, style: TextStyle): void {
  page.drawText(pdfSafe(text, style.font), { x, y, font: style.font, size: style.size, color: style.color ?? INK });
}

/** Text that flows down the page and continues on a new page at the bottom margin. */
export class Flow {
  page: PDFPage;
  y: number;
  readonly pages: PDFPage[] = [];

  constructor(private readonly doc: PDFDocument) {
    this.page = this.newPage();
    this.y = PAGE_SIZE[1] - MARGIN.top;
  }

  newPage(): PDFPage {
    this.page = this.doc.addPage(PAGE_SIZE);
    this.pages.push(this.page);
    this.y = PAGE_SIZE[1] - MARGIN.top;
    return this.page;
  }

  /** Starts a new page unless `height` points fit above the bottom margin. */
  ensure(height: number): void {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  space(points: number): void {
    this.y -= points;
  }

  /** Wrapped text at x (from the left margin) within width; `keepWithNext` lines must fit with the first. */
  text(text: string, style: TextStyle, options: { indent?: number; width?: number; keepWithNext?: number } = {}): void {
    const { indent = 0, keepWithNext = 0 } = options;
    const width = options.width ?? CONTENT_WIDTH - indent;
    const lineHeight = style.lineHeight ?? style.size * 1.4;
    wrapText(text, style.font, style.size, width).forEach((line, i) => {
      this.ensure(lineHeight * (i === 0 ? 1 + keepWithNext : 1));
      this.y -= lineHeight;
      drawLine(this.page, line, MARGIN.left + indent, this.y + (lineHeight - style.size) / 2, style);
    });
  }

  /** A bold label followed by wrapped text on the same line. */
  field(label: string, text: string, style: TextStyle, bold: PDFFont, indent = 0): void {
    const lead = `${label}: `;
    const leadWidth = bold.widthOfTextAtSize(pdfSafe(lead, bold), style.size) + 1.5;
    const lineHeight = style.lineHeight ?? style.size * 1.4;
    // The first line shares its width with the label; the next ones use the full width.
    const [first = '', ...rest] = wrapText(text, style.font, style.size, CONTENT_WIDTH - indent - leadWidth);
    const tail = rest.length ? wrapText(rest.join(' '), style.font, style.size, CONTENT_WIDTH - indent) : [];
    this.ensure(lineHeight);
    this.y -= lineHeight;
    const baseline = this.y + (lineHeight - style.size) / 2;
    drawLine(this.page, lead, MARGIN.left + indent, baseline, { ...style, font: bold });
    drawLine(this.page, first, MARGIN.left + indent + leadWidth, baseline, style);
    for (const line of tail) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      drawLine(this.page, line, MARGIN.left + indent, this.y + (lineHeight - style.size) / 2, style);
    }
  }
}

/** One centred footer line on each page, told its number and the total. */
export function drawFooters(pages: PDFPage[], font: PDFFont, footer: (n: number, total: number) => string): void {
  pages.forEach((page, i) => {
    const text = pdfSafe(footer(i + 1, pages.length), font);
    const width = font.widthOfTextAtSize(text, 8);
    page.drawText(text, { x: (PAGE_SIZE[0] - width) / 2, y: FOOTER_Y, font, size: 8, color: MUTED });
  });
}

/**
 * Signature page layout: a heading and an introduction at fixed places, then up to four slots per
 * page, each a caption, a box, and the signer's name and role under it. Fixed, so that the signed
 * render finds each box without reading the page.
 */
export const SLOTS_PER_PAGE = 4;
const SLOTS_TOP = 643;
const SLOT_PITCH = 146;
const BOX = { width: 300, height: 88 };

export interface SlotRect {
  /** Index among the signature pages (0 = the first signature page). */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where slot n's signature goes: page-relative rectangle (PDF points, origin bottom-left). */
export function signatureSlotRect(slot: number): SlotRect {
  if (!Number.isInteger(slot) || slot < 0) throw new RangeError(`signature slot ${slot}`);
  const top = SLOTS_TOP - (slot % SLOTS_PER_PAGE) * SLOT_PITCH;
  return { page: Math.floor(slot / SLOTS_PER_PAGE), x: MARGIN.left, y: top - 16 - BOX.height, ...BOX };
}

/** Baselines around a slot's box: caption above, then name, role and (once signed) a note under it. */
export function slotTextPositions(slot: number) {
  const rect = signatureSlotRect(slot);
  return {
    caption: rect.y + rect.height + 6,
    name: rect.y - 13,
    role: rect.y - 25,
    signedNote: rect.y - 36,
  };
}

export const SIGNATURE_HEADING_Y = PAGE_SIZE[1] - MARGIN.top - 16;
export const SIGNATURE_INTRO_TOP = SIGNATURE_HEADING_Y - 10;
