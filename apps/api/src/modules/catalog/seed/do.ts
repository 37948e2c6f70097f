/**
 * Dominican Republic: the provinces, municipalities and neighbourhoods come from the ONE file,
 * shipped as `do-catalog.json.gz` (see ../do-catalog.ts). Here: the municipalities the lender
 * serves at launch (Gran Santo Domingo and Santiago), by ONE province and municipality code.
 * The seed sets `allowed` only when it creates a municipality; an operator's later change stays.
 */
export const DO_SERVED_MUNICIPALITIES: readonly [province: string, municipality: string][] = [
  ['01', '01'], // Santo Domingo de Guzmán (Distrito Nacional)
  ['25', '01'], // Santiago
  ['32', '01'], // Santo Domingo Este
  ['32', '02'], // Santo Domingo Oeste
  ['32', '03'], // Santo Domingo Norte
  ['32', '04'], // Boca Chica
  ['32', '05'], // San Antonio de Guerra
  ['32', '06'], // Los Alcarrizos
  ['32', '07'], // Pedro Brand
];
