/** Choices of SPEC §3/§5 with the Spanish labels the screens show. */
export const CIVIL_STATUSES = [
  { value: 'SINGLE', label: 'Soltero(a)' },
  { value: 'MARRIED', label: 'Casado(a)' },
  { value: 'FREE_UNION', label: 'Unión libre' },
  { value: 'DIVORCED', label: 'Divorciado(a)' },
  { value: 'WIDOW', label: 'Viudo(a)' },
] as const;
export type CivilStatus = (typeof CIVIL_STATUSES)[number]['value'];
export const CIVIL_STATUS_VALUES = CIVIL_STATUSES.map((status) => status.value) as [CivilStatus, ...CivilStatus[]];

/** Residency and business age: 1–4, where 4 means '4 o más años'. */
export const YEAR_CHOICES = [
  { value: '1', label: '1 año' },
  { value: '2', label: '2 años' },
  { value: '3', label: '3 años' },
  { value: '4', label: '4 o más años' },
] as const;

export const OTHER_BUSINESS_TYPE = 'Otros';
