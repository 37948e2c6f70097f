import { PHONE_INVALID_MESSAGE, isValidNationalNumber, toE164, type CountryCode } from '@provee/domain';
import { invalidFields } from './errors.js';

/**
 * A national number as the app sends it, checked against the country's numbering plan, in E.164;
 * a 400 naming the field (with the words the landing shows under it) otherwise. Every module that
 * takes a phone number from a request parses it here.
 */
export function parsePhone(country: CountryCode, digits: string, field = 'body.phone_number'): string {
  if (!isValidNationalNumber(country, digits)) {
    const [prefix, ...rest] = field.split('.');
    throw invalidFields({ [rest.join('.')]: PHONE_INVALID_MESSAGE }, prefix);
  }
  return toE164(country, digits);
}
