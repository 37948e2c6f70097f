import { PHONE_INVALID_MESSAGE, isValidNationalNumber, toE164, type CountryCode } from '@provee/domain';
import { invalidFields } from '../../errors.js';

/** The same words the landing shows under the field. */
export const PHONE_MESSAGE = PHONE_INVALID_MESSAGE;

/** The national number as the app sends it (the contract's schema; the country plan is checked in `parsePhone`). */
export { phoneNumberSchema } from '@provee/domain';

/** The country's numbering plan, then E.164; a 400 with the field issue otherwise. */
export function parsePhone(country: CountryCode, digits: string, field = 'body.phone_number'): string {
  if (!isValidNationalNumber(country, digits)) {
    const [prefix, ...rest] = field.split('.');
    throw invalidFields({ [rest.join('.')]: PHONE_MESSAGE }, prefix);
  }
  return toE164(country, digits);
}
