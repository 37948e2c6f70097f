import { amountInWords } from '../amount-in-words.js';
import type { ContractDocumentInput, ContractParty } from '../types.js';
import { avalRole, decimal, longDate } from './common.js';
import type { Block, ContractTemplate } from './types.js';

/** República Dominicana, version 2026-11.1. Published: do not edit; add a new version instead. */
const VERSION = 'do-2026-11.1';

const money = (amount: number) => `RD$ ${decimal(amount, 'es-DO')}`;
const inWords = (amount: number) =>
  `${amountInWords(amount)} ${amount === 1 ? 'peso dominicano' : 'pesos dominicanos'} con 00/100`;
const person = (p: ContractParty) => `${p.name}, Cédula ${p.taxId}, teléfono ${p.phone}`;

function body(input: ContractDocumentInput): Block[] {
  const { titular, guarantors, business, lenderName } = input;
  const blocks: Block[] = [
    { kind: 'heading', text: 'Partes' },
    { kind: 'field', label: 'EL ACREEDOR', text: `${lenderName}.` },
    { kind: 'field', label: 'EL DEUDOR (titular)', text: `${person(titular)}.` },
  ];
  if (guarantors.length === 0) blocks.push({ kind: 'field', label: 'LOS AVALES', text: 'ninguno.' });
  else {
    blocks.push({ kind: 'field', label: 'LOS AVALES', text: 'fiadores solidarios de EL DEUDOR:' });
    guarantors.forEach((g, i) =>
      blocks.push({ kind: 'item', label: `${i + 1}.`, text: `${avalRole(g)}: ${person(g)}.` }),
    );
  }
  blocks.push(
    {
      kind: 'field',
      label: 'El negocio',
      text: business
        ? `${business.name}, tipo de negocio ${business.type}, ubicado en ${business.address}.`
        : 'sin datos registrados.',
    },
    { kind: 'field', label: 'Monto del crédito', text: `${money(input.amount)} (${inWords(input.amount)}).` },
    { kind: 'heading', text: 'Cláusulas' },
  );
  CLAUSES(input).forEach(([title, text], i) =>
    blocks.push({ kind: 'item', label: `${i + 1}.`, text: `${title.toUpperCase()}. ${text}` }),
  );
  return blocks;
}

const CLAUSES = (input: ContractDocumentInput): [string, string][] => [
  [
    'Objeto',
    'EL ACREEDOR otorga a EL DEUDOR un crédito destinado a la operación de su negocio, y EL DEUDOR se obliga a ' +
      'devolverlo junto con los intereses y cargos pactados, en la forma y plazos de este contrato y de su Anexo A.',
  ],
  [
    'Monto y disposición',
    `El monto del crédito es de ${money(input.amount)} (${inWords(input.amount)}). EL ACREEDOR lo entrega en una ` +
      'o varias disposiciones, en efectivo, por transferencia o en mercancía, y cada disposición consta en el ' +
      'comprobante que recibe EL DEUDOR.',
  ],
  [
    'Intereses y pagos',
    'La tasa de interés, los cargos, el número, las fechas y el monto de cada cuota constan en el Anexo A (tabla de ' +
      'amortización), que EL ACREEDOR entrega a EL DEUDOR con el desembolso y que forma parte de este contrato. ' +
      'Los pagos se aplican primero a cargos e intereses vencidos y después al capital. Si EL DEUDOR deja de pagar ' +
      'una cuota en su fecha, EL ACREEDOR podrá exigir el saldo total del crédito en los términos del Anexo A.',
  ],
  [
    'Obligaciones de los avales',
    'Cada aval se constituye en fiador solidario e indivisible de EL DEUDOR, renuncia a los beneficios de excusión ' +
      'y de división, y responde del pago total de las obligaciones de este contrato hasta su extinción. EL ACREEDOR ' +
      'podrá exigir el pago a EL DEUDOR o a cualquiera de los avales, indistintamente.',
  ],
  [
    'Obligaciones de EL DEUDOR',
    'EL DEUDOR declara que los datos que dio son verdaderos, usará el crédito en su negocio y avisará a EL ACREEDOR ' +
      'cualquier cambio de su teléfono o de la dirección de su negocio.',
  ],
  [
    'Datos personales y consulta al buró',
    'EL DEUDOR y los avales autorizan a EL ACREEDOR a consultar y reportar su historial de crédito ante las ' +
      'sociedades de información crediticia, y a tratar sus datos personales, incluidas las imágenes de su documento ' +
      'de identidad y de su rostro, para verificar su identidad y para evaluar, otorgar, administrar y cobrar el ' +
      'crédito, conforme a la Ley núm. 172-13 sobre protección de datos de carácter personal. Pueden pedir el acceso, ' +
      'la rectificación o la cancelación de sus datos a EL ACREEDOR.',
  ],
  [
    'Firma electrónica y evidencia',
    'Cada firmante verifica su identidad con su Cédula y una fotografía de su rostro, confirma su teléfono y traza ' +
      'su firma autógrafa en la pantalla de su dispositivo. La firma se incorpora a su recuadro y se agrega una ' +
      'página de "Evidencia de firma" con la fecha y hora (UTC), la dirección IP, el dispositivo, la ubicación cuando ' +
      'el firmante la permite, la verificación de identidad y las huellas SHA-256 del documento y de la firma. Las ' +
      'partes acuerdan que esta firma, junto con la verificación de identidad y la página de evidencia, las obliga ' +
      'y tiene el mismo valor que la firma manuscrita en papel, conforme a la Ley núm. 126-02 sobre Comercio ' +
      'Electrónico, Documentos y Firmas Digitales.',
  ],
  [
    'Notificaciones',
    'Las notificaciones y avisos de este contrato se envían por mensaje de texto (SMS) al teléfono de cada parte ' +
      'indicado arriba, o al que haya informado después por escrito.',
  ],
  [
    'Ley y jurisdicción',
    'Este contrato se rige por las leyes de la República Dominicana. Para todo lo relativo a su interpretación y ' +
      'cumplimiento, las partes se someten a los tribunales competentes de Santo Domingo, Distrito Nacional.',
  ],
];

export const template: ContractTemplate = {
  version: VERSION,
  country: 'do',
  title: 'Contrato de crédito',
  placeAndDate: (issuedAt) => `Santo Domingo, ${longDate(issuedAt, 'es-DO', 'America/Santo_Domingo')}`,
  body,
  signatureHeading: 'Firmas',
  signatureIntro:
    'Firman de conformidad EL DEUDOR y los avales, cada uno con su firma autógrafa trazada en pantalla. Cada firma ' +
    'se acompaña de su página de "Evidencia de firma". EL ACREEDOR acepta este contrato con el desembolso del crédito.',
  slotCaption: (slot, count) => (slot === 0 ? 'Firma de EL DEUDOR' : `Firma del aval ${slot} de ${count}`),
  roleLabel: (party) => (party.role === 'titular' ? 'Titular (EL DEUDOR)' : `${avalRole(party)} · fiador solidario`),
};
