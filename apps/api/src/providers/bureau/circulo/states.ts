/**
 * Círculo's state codes (`CatalogoEstados` of the RCC API: rcc-ficoscore-client-java
 * `model/CatalogoEstados.java`), by INEGI's two-digit state code, which the Mexican address
 * catalogue keeps. Círculo also accepts `DF` for Mexico City; we send `CDMX`.
 */
export const CIRCULO_STATE_BY_INEGI = {
  '01': 'AGS',
  '02': 'BC',
  '03': 'BCS',
  '04': 'CAMP',
  '05': 'COAH',
  '06': 'COL',
  '07': 'CHIS',
  '08': 'CHIH',
  '09': 'CDMX',
  '10': 'DGO',
  '11': 'GTO',
  '12': 'GRO',
  '13': 'HGO',
  '14': 'JAL',
  '15': 'MEX',
  '16': 'MICH',
  '17': 'MOR',
  '18': 'NAY',
  '19': 'NL',
  '20': 'OAX',
  '21': 'PUE',
  '22': 'QRO',
  '23': 'QROO',
  '24': 'SLP',
  '25': 'SIN',
  '26': 'SON',
  '27': 'TAB',
  '28': 'TAMP',
  '29': 'TLAX',
  '30': 'VER',
  '31': 'YUC',
  '32': 'ZAC',
} as const;

export type CirculoState = (typeof CIRCULO_STATE_BY_INEGI)[keyof typeof CIRCULO_STATE_BY_INEGI] | 'DF';

/** Círculo's code of an INEGI state code ('15' → 'MEX'); undefined for a code INEGI does not have. */
export function circuloState(inegiCode: string): CirculoState | undefined {
  return Object.hasOwn(CIRCULO_STATE_BY_INEGI, inegiCode)
    ? CIRCULO_STATE_BY_INEGI[inegiCode as keyof typeof CIRCULO_STATE_BY_INEGI]
    : undefined;
}

/**
 * The NIP audit (`auth-nip`) has a state list of its own (audit-firma-client-java
 * `model/CatalogoEstados.java`): eight states are spelled differently there.
 */
const AUDIT_STATE: Partial<Record<CirculoState, string>> = {
  BC: 'BCN',
  CAMP: 'CAM',
  CHIS: 'CHS',
  CHIH: 'CHI',
  COAH: 'COA',
  QROO: 'QR',
  MEX: 'EM',
  TAMP: 'TAM',
};

/** The NIP audit's code of a report's state code. */
export function auditState(state: CirculoState): string {
  return AUDIT_STATE[state] ?? state;
}
