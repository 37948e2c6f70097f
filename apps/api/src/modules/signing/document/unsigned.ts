import { PDFDocument, rgb } from 'pdf-lib';
import { writeContractInfo } from './info.js';
import {
  CONTENT_WIDTH,
  drawFooters,
  drawLine,
  embedFonts,
  Flow,
  MARGIN,
  MUTED,
  signatureSlotRect,
  SIGNATURE_HEADING_Y,
  SIGNATURE_INTRO_TOP,
  SLOTS_PER_PAGE,
  slotTextPositions,
  type Fonts,
} from './layout.js';
import { CURRENT_TEMPLATES, type ContractTemplate } from './templates/index.js';
import { wrapText } from './text.js';
import type { ContractDocumentInput, ContractParty } from './types.js';

const BODY = 10;

/**
 * The contract as each party reads it before signing: the current template of the country, then
 * the signature page(s) with one empty box per party. Same input, same bytes (the dates come from
 * issuedAt), so the SHA-256 printed on each evidence page identifies exactly what was signed.
 */
export async function renderUnsignedContract(input: ContractDocumentInput): Promise<Uint8Array> {
  const template = CURRENT_TEMPLATES[input.country];
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(doc);
  const flow = new Flow(doc);

  flow.text(template.title, { font: fonts.bold, size: 18, lineHeight: 24 });
  flow.text(`Plantilla de contrato versión ${template.version}`, { font: fonts.regular, size: 9, color: MUTED });
  flow.space(4);
  flow.field('Contrato núm.', input.contractId, { font: fonts.regular, size: BODY }, fonts.bold);
  flow.text(template.placeAndDate(input.issuedAt), { font: fonts.regular, size: BODY });
  flow.space(6);
  for (const block of template.body(input)) {
    const style = { font: fonts.regular, size: BODY };
    if (block.kind === 'heading') {
      flow.space(8);
      flow.text(block.text, { font: fonts.bold, size: 12, lineHeight: 18 }, { keepWithNext: 2 });
    } else if (block.kind === 'paragraph') flow.text(block.text, style);
    else if (block.kind === 'field') flow.field(block.label, block.text, style, fonts.bold);
    else {
      flow.space(3);
      flow.ensure(BODY * 1.4 * 2);
      drawLine(flow.page, block.label, MARGIN.left + 4, flow.y - BODY * 1.4 + 2, { font: fonts.bold, size: BODY });
      flow.text(block.text, style, { indent: 22 });
    }
  }

  const parties = [input.titular, ...input.guarantors];
  const firstSignaturePage = flow.pages.length;
  drawSignaturePages(flow, fonts, template, parties);

  drawFooters(flow.pages, fonts.regular, (n, total) =>
    [`Contrato ${input.contractId}`, `Plantilla ${template.version}`, `Página ${n} de ${total}`].join(' · '),
  );
  doc.setTitle(`${template.title} ${input.contractId}`);
  doc.setSubject(`Contrato núm. ${input.contractId}, plantilla ${template.version}`);
  doc.setAuthor(input.lenderName);
  doc.setCreator('Provee');
  doc.setProducer('Provee (pdf-lib)');
  doc.setLanguage(input.country === 'do' ? 'es-DO' : 'es-MX');
  doc.setCreationDate(input.issuedAt);
  doc.setModificationDate(input.issuedAt);
  writeContractInfo(doc, {
    contractId: input.contractId,
    templateVersion: template.version,
    firstSignaturePage,
    slotCount: parties.length,
  });
  return doc.save();
}

function drawSignaturePages(flow: Flow, fonts: Fonts, template: ContractTemplate, parties: ContractParty[]): void {
  const guarantors = parties.length - 1;
  parties.forEach((party, slot) => {
    if (slot % SLOTS_PER_PAGE === 0) {
      const page = flow.newPage();
      const heading = slot === 0 ? template.signatureHeading : `${template.signatureHeading} (continuación)`;
      drawLine(page, heading, MARGIN.left, SIGNATURE_HEADING_Y, { font: fonts.bold, size: 14 });
      if (slot === 0) {
        const lines = wrapText(template.signatureIntro, fonts.regular, BODY, CONTENT_WIDTH);
        if (lines.length > 3) throw new Error(`${template.version}: signatureIntro must fit in 3 lines`);
        lines.forEach((line, i) =>
          drawLine(page, line, MARGIN.left, SIGNATURE_INTRO_TOP - (i + 1) * 14, { font: fonts.regular, size: BODY }),
        );
      }
    }
    const rect = signatureSlotRect(slot);
    const at = slotTextPositions(slot);
    const page = flow.page;
    drawLine(page, template.slotCaption(slot, guarantors), rect.x, at.caption, {
      font: fonts.bold,
      size: 9,
      color: MUTED,
    });
    page.drawRectangle({ ...rect, borderColor: rgb(0.55, 0.55, 0.6), borderWidth: 0.8 });
    // The full name is in the parties section; here one line, cut with '...' if it would leave the page.
    const [name = '', ...more] = wrapText(party.name, fonts.bold, BODY, CONTENT_WIDTH - 12);
    drawLine(page, more.length ? `${name}...` : name, rect.x, at.name, { font: fonts.bold, size: BODY });
    drawLine(page, template.roleLabel(party), rect.x, at.role, { font: fonts.regular, size: 9, color: MUTED });
  });
}
