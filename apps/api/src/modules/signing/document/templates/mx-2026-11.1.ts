import { amountInWords } from '../amount-in-words.js';
import type { ContractDocumentInput, ContractParty } from '../types.js';
import { avalRole, decimal, longDate } from './common.js';
import type { Block, ContractTemplate } from './types.js';

/** México, version 2026-11.1. Published: do not edit; add a new version instead. */
const VERSION = 'mx-2026-11.1';

const money = (amount: number) => `$${decimal(amount, 'es-MX')} MXN`;
const inWords = (amount: number) => `${amountInWords(amount)} ${amount === 1 ? 'peso' : 'pesos'} 00/100 M.N.`;
const person = (p: ContractParty) => `${p.name}, RFC ${p.taxId}, teléfono ${p.phone}`;

function body(input: ContractDocumentInput): Block[] {
  const { titular, guarantors, business, lenderName } = input;
  const blocks: Block[] = [
    { kind: 'heading', text: 'Partes' },
    { kind: 'field', label: 'EL ACREDITANTE', text: `${lenderName}.` },
    { kind: 'field', label: 'EL ACREDITADO (titular)', text: `${person(titular)}.` },
  ];
  if (guarantors.length === 0) blocks.push({ kind: 'field', label: 'LOS AVALES', text: 'ninguno.' });
  else {
    blocks.push({ kind: 'field', label: 'LOS AVALES', text: 'obligados solidarios de EL ACREDITADO:' });
    guarantors.forEach((g, i) =>
      blocks.push({ kind: 'item', label: `${i + 1}.`, text: `${avalRole(g)}: ${person(g)}.` }),
    );
  }
  blocks.push(
    {
      kind: 'field',
      label: 'El negocio',
      text: business
        ? `${business.name}, giro ${business.type}, ubicado en ${business.address}.`
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
    'EL ACREDITANTE otorga a EL ACREDITADO un crédito destinado a la operación de su negocio, y EL ACREDITADO se ' +
      'obliga a pagarlo junto con los intereses y comisiones pactados, en la forma y plazos de este contrato y de ' +
      'su Anexo A.',
  ],
  [
    'Monto y disposición',
    `El monto del crédito es de ${money(input.amount)} (${inWords(input.amount)}). EL ACREDITANTE lo entrega en ` +
      'una o varias disposiciones, en efectivo, por transferencia o en mercancía, y cada disposición consta en el ' +
      'comprobante que recibe EL ACREDITADO.',
  ],
  [
    'Intereses y pagos',
    'La tasa de interés, el costo anual total (CAT), las comisiones, el número, las fechas y el monto de cada pago ' +
      'constan en el Anexo A (tabla de amortización), que EL ACREDITANTE entrega a EL ACREDITADO con la disposición ' +
      'y que forma parte de este contrato. Los pagos se aplican primero a comisiones e intereses vencidos y después ' +
      'al capital. Si EL ACREDITADO deja de pagar en su fecha, EL ACREDITANTE podrá exigir el saldo total del ' +
      'crédito en los términos del Anexo A.',
  ],
  [
    'Obligaciones de los avales',
    'Cada aval se constituye en obligado solidario de EL ACREDITADO y responde frente a EL ACREDITANTE del pago ' +
      'total de las obligaciones de este contrato hasta su extinción. EL ACREDITANTE podrá exigir el pago a EL ' +
      'ACREDITADO o a cualquiera de los avales, indistintamente, sin necesidad de requerir antes a EL ACREDITADO.',
  ],
  [
    'Obligaciones de EL ACREDITADO',
    'EL ACREDITADO declara que los datos que dio son verdaderos, usará el crédito en su negocio y avisará a EL ' +
      'ACREDITANTE cualquier cambio de su teléfono o del domicilio de su negocio.',
  ],
  [
    'Datos personales y consulta al buró',
    'EL ACREDITADO y los avales autorizan a EL ACREDITANTE a consultar y reportar su historial crediticio ante las ' +
      'sociedades de información crediticia, conforme a la Ley para Regular las Sociedades de Información ' +
      'Crediticia, y a tratar sus datos personales, incluidas las imágenes de su identificación y de su rostro, para ' +
      'verificar su identidad y para evaluar, otorgar, administrar y cobrar el crédito, conforme a la Ley Federal de ' +
      'Protección de Datos Personales en Posesión de los Particulares y al aviso de privacidad de EL ACREDITANTE. ' +
      'Pueden ejercer sus derechos de acceso, rectificación, cancelación y oposición ante EL ACREDITANTE.',
  ],
  [
    'Firma electrónica y evidencia',
    'Cada firmante verifica su identidad con su identificación oficial y una fotografía de su rostro, confirma su ' +
      'teléfono y traza su firma autógrafa en la pantalla de su dispositivo. La firma se incorpora a su recuadro y ' +
      'se agrega una página de "Evidencia de firma" con la fecha y hora (UTC), la dirección IP, el dispositivo, la ' +
      'ubicación cuando el firmante la permite, la verificación de identidad y las huellas SHA-256 del documento y ' +
      'de la firma. Las partes acuerdan que esta firma electrónica, junto con la verificación de identidad y la ' +
      'página de evidencia, las obliga y produce los mismos efectos que la firma autógrafa en papel, conforme al ' +
      'Código de Comercio en materia de comercio electrónico.',
  ],
  [
    'Notificaciones',
    'Las notificaciones y avisos de este contrato se envían por mensaje de texto (SMS) al teléfono de cada parte ' +
      'indicado arriba, o al que haya informado después por escrito.',
  ],
  [
    'Ley y jurisdicción',
    'Este contrato se rige por las leyes de los Estados Unidos Mexicanos. Para su interpretación y cumplimiento, ' +
      'las partes se someten a los tribunales competentes de la Ciudad de México y renuncian a cualquier otro fuero ' +
      'que pudiera corresponderles por razón de su domicilio presente o futuro.',
  ],
];

export const template: ContractTemplate = {
  version: VERSION,
  country: 'mx',
  title: 'Contrato de crédito',
  placeAndDate: (issuedAt) => `Ciudad de México, ${longDate(issuedAt, 'es-MX', 'America/Mexico_City')}`,
  body,
  signatureHeading: 'Firmas',
  signatureIntro:
    'Firman de conformidad EL ACREDITADO y los avales, cada uno con su firma autógrafa trazada en pantalla. Cada ' +
    'firma se acompaña de su página de "Evidencia de firma". EL ACREDITANTE acepta este contrato con la disposición ' +
    'del crédito.',
  slotCaption: (slot, count) => (slot === 0 ? 'Firma de EL ACREDITADO' : `Firma del aval ${slot} de ${count}`),
  roleLabel: (party) =>
    party.role === 'titular' ? 'Titular (EL ACREDITADO)' : `${avalRole(party)} · obligado solidario`,
};
