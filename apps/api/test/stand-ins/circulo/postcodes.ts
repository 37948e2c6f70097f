/**
 * Which state a Mexican postcode belongs to, by its first two digits (SEPOMEX assigns each state
 * its own ranges). Círculo refuses a `CP` that does not belong to the `estado` sent with it; the
 * stand-in checks the same with this table, independently of the product's address catalogue.
 */
const PREFIXES: Record<string, [number, number][]> = {
  CDMX: [[1, 16]],
  DF: [[1, 16]],
  AGS: [[20, 20]],
  BC: [[21, 22]],
  BCS: [[23, 23]],
  CAMP: [[24, 24]],
  COAH: [[25, 27]],
  COL: [[28, 28]],
  CHIS: [[29, 30]],
  CHIH: [[31, 33]],
  DGO: [[34, 35]],
  GTO: [[36, 38]],
  GRO: [[39, 41]],
  HGO: [[42, 43]],
  JAL: [[44, 49]],
  MEX: [[50, 57]],
  MICH: [[58, 61]],
  MOR: [[62, 62]],
  NAY: [[63, 63]],
  NL: [[64, 67]],
  OAX: [[68, 71]],
  PUE: [[72, 75]],
  QRO: [[76, 76]],
  QROO: [[77, 77]],
  SLP: [[78, 79]],
  SIN: [[80, 82]],
  SON: [[83, 85]],
  TAB: [[86, 86]],
  TAMP: [[87, 89]],
  TLAX: [[90, 90]],
  VER: [[91, 96]],
  YUC: [[97, 97]],
  ZAC: [[98, 99]],
};

export const CIRCULO_STATES = Object.keys(PREFIXES);

export function postcodeInState(postcode: string, state: string): boolean {
  if (!/^\d{5}$/.test(postcode)) return false;
  const prefix = Number(postcode.slice(0, 2));
  return (PREFIXES[state] ?? []).some(([from, to]) => prefix >= from && prefix <= to);
}
