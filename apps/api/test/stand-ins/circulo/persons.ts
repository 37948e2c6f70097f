/**
 * The stand-in's test persons, chosen by the birth-date part of the RFC (characters 5–10), like
 * the product's simulator. Reports are shaped like Círculo's published sample answer
 * (genera-reporte-RCC `Main.java`): numbers as strings, the FICO Score as a number.
 *
 * | RFC date part | answer                                                                  |
 * |---------------|-------------------------------------------------------------------------|
 * | 800101        | good: FICO 720, two open accounts up to date                            |
 * | 800102        | past due: FICO 680, an open account 1,500 past due, 3 monthly payments late |
 * | 800103        | thin file: 204, no record                                               |
 * | 800104        | low score: FICO 560, up to date                                         |
 * | 800105        | blocked: 403 (the consumer's file is blocked; code is the stand-in's own) |
 * | 800106        | 401: the credentials are not allowed the product                        |
 * | 800107        | 429 on the first query, then good                                       |
 * | 800108        | 503 on the first query, then good                                       |
 * | 800109        | good, but the answer's signature is wrong                               |
 * | 800110        | good, signed, but about another person (a replayed answer)              |
 * | anything else | good                                                                    |
 */
export type Behaviour =
  | 'good'
  | 'past-due'
  | 'thin-file'
  | 'low-score'
  | 'blocked'
  | 'unauthorised'
  | 'busy-once'
  | 'down-once'
  | 'bad-signature'
  | 'someone-else';

const BY_DATE_PART: Record<string, Behaviour> = {
  '800101': 'good',
  '800102': 'past-due',
  '800103': 'thin-file',
  '800104': 'low-score',
  '800105': 'blocked',
  '800106': 'unauthorised',
  '800107': 'busy-once',
  '800108': 'down-once',
  '800109': 'bad-signature',
  '800110': 'someone-else',
};

export function behaviourOf(rfc: string | undefined): Behaviour {
  return BY_DATE_PART[(rfc ?? '').slice(4, 10)] ?? 'good';
}

const day = (now: Date, daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);

function account(
  now: Date,
  fields: { saldoVencido?: number; peorAtraso?: number; closedDaysAgo?: number; lender: string },
) {
  return {
    fechaActualizacion: day(now, 20),
    registroImpugnado: '0',
    claveOtorgante: '0000081008',
    nombreOtorgante: fields.lender,
    cuentaActual: '0000000000',
    tipoResponsabilidad: 'I',
    tipoCuenta: 'F',
    tipoCredito: 'PP',
    claveUnidadMonetaria: 'MX',
    numeroPagos: '12',
    frecuenciaPagos: 'M',
    montoPagar: '850',
    fechaAperturaCuenta: day(now, 900),
    fechaCierreCuenta: fields.closedDaysAgo === undefined ? null : day(now, fields.closedDaysAgo),
    creditoMaximo: '10000',
    saldoActual: '4200',
    limiteCredito: '10000',
    saldoVencido: String(fields.saldoVencido ?? 0),
    numeroPagosVencidos: String(fields.peorAtraso ?? 0),
    pagoActual: fields.saldoVencido ? '03' : ' V',
    peorAtraso: String(fields.peorAtraso ?? 0),
    clavePrevencion: null,
  };
}

/** The person a report is about, as Círculo files them (the answer's `persona`). */
export interface FiledPerson {
  apellidoPaterno: unknown;
  apellidoMaterno: unknown;
  primerNombre: unknown;
  fechaNacimiento: unknown;
  RFC: unknown;
}

/** A report about `person`, folio given. */
export function reportFor(behaviour: Behaviour, folio: string, now: Date, person: FiledPerson) {
  const score = behaviour === 'past-due' ? 680 : behaviour === 'low-score' ? 560 : 720;
  const creditos = [
    account(now, { lender: 'TIENDA DEPARTAMENTAL' }),
    account(now, { lender: 'BANCO', closedDaysAgo: 400, peorAtraso: 1 }),
    behaviour === 'past-due'
      ? account(now, { lender: 'FINANCIERA', saldoVencido: 1500, peorAtraso: 3 })
      : account(now, { lender: 'FINANCIERA' }),
  ];
  return {
    folioConsulta: folio,
    folioConsultaOtorgante: '0000001',
    claveOtorgante: '0000081008',
    declaracionesConsumidor: null,
    persona: {
      apellidoPaterno: person.apellidoPaterno,
      apellidoMaterno: person.apellidoMaterno,
      nombres: person.primerNombre,
      fechaNacimiento: person.fechaNacimiento,
      RFC: person.RFC,
      nacionalidad: 'MX',
    },
    consultas: [
      { fechaConsulta: day(now, 30), claveOtorgante: '0000081008', nombreOtorgante: 'BANCO', tipoCredito: 'PP' },
      { fechaConsulta: day(now, 200), claveOtorgante: '0000081008', nombreOtorgante: 'FINANCIERA', tipoCredito: 'PP' },
    ],
    creditos,
    domicilios: [],
    empleos: [],
    scores: [{ nombreScore: 'FICO', valor: score, razones: ['D2', 'P9', 'K0', 'E0'] }],
    mensajes: [{ tipoMensaje: '2', leyenda: "No se obtuvo respuesta de otras SIC's" }],
  };
}
