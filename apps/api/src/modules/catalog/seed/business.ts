import type { CountryCode } from '@provee/domain';
import { OTHER_BUSINESS_TYPE } from '@provee/domain';

/** Business types ('giro') offered per country; 'Otros' asks for a description. */
export const BUSINESS_TYPES: Record<CountryCode, string[]> = {
  do: [
    'Colmado',
    'Minimarket',
    'Farmacia',
    'Ferretería',
    'Salón de belleza',
    'Comedor o restaurante',
    'Cafetería',
    'Papelería',
    'Tienda de ropa',
    OTHER_BUSINESS_TYPE,
  ],
  mx: [
    'Tienda de abarrotes',
    'Miscelánea',
    'Papelería',
    'Farmacia',
    'Ferretería',
    'Recaudería',
    'Carnicería',
    'Tortillería',
    'Cocina económica',
    OTHER_BUSINESS_TYPE,
  ],
};

/** Average weekly sales, low to high, in the country's currency. */
export const SALES_RANGES: Record<CountryCode, string[]> = {
  do: [
    'Menos de RD$10,000',
    'RD$10,000 a RD$25,000',
    'RD$25,001 a RD$50,000',
    'RD$50,001 a RD$100,000',
    'Más de RD$100,000',
  ],
  mx: ['Menos de $5,000', '$5,000 a $10,000', '$10,001 a $20,000', '$20,001 a $40,000', 'Más de $40,000'],
};
