import { birthDateOfRfc, countryToday, getCountry, type CountryCode, type RegisterAvalPayload } from '@provee/domain';
import type { FieldCipher } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import { invalidFields } from '../../errors.js';
import type { BureauProvider } from '../../providers/bureau/index.js';
import { addressInCatalog, findMunicipalityState, type CatalogAddress } from '../catalog/index.js';
import type { GuarantorPerson } from '../credit/index.js';
import type { AvalRow } from './guarantors.store.js';

const NAME = /^[\p{L} .'-]{2,80}$/u;
const SURNAME = /^[\p{L} .'-]{2,60}$/u;
/**
 * Where the bureau files people by name (Círculo), names in the Latin alphabet: Círculo keeps only
 * A–Z once accents are off, so a name in another script would reach it empty.
 */
const LATIN = /^[A-Za-zÀ-ÖØ-öø-ÿ .'-]+$/;
/** The whole name as the SMS, the contract and the back office show it. */
const FULL_NAME_MAX = 120;

type PersonDeps = { db: Db; clock: () => Date; cipher: FieldCipher; config: { COUNTRY: CountryCode } };

type NamingInput = Pick<RegisterAvalPayload, 'name' | 'lastname' | 'maternal_lastname' | 'address'>;
type NamingDeps = PersonDeps & { bureau: Pick<BureauProvider, 'needsPerson'> };

/**
 * The naming form's messages about who the guarantor is. A bureau that files people by their
 * name's parts, birth date and address (`needsPerson`, Círculo de Crédito) requires the paternal
 * surname, the home address and an RFC that carries a birth date.
 */
export function personErrors(deps: NamingDeps, input: NamingInput, taxId: string): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = input.name.trim();
  const lastname = input.lastname?.trim();
  const maternalLastname = input.maternal_lastname?.trim();
  const { needsPerson } = deps.bureau;
  const fits = (value: string, pattern: RegExp) => pattern.test(value) && (!needsPerson || LATIN.test(value));
  if (!fits(name, NAME))
    errors.name = lastname ? '* Escribe el nombre (o los nombres) del aval.' : '* Escribe el nombre completo del aval.';
  else if ([name, lastname, maternalLastname].filter(Boolean).join(' ').length > FULL_NAME_MAX)
    errors.name = `* El nombre completo del aval es muy largo (máximo ${FULL_NAME_MAX} caracteres).`;
  if (lastname ? !fits(lastname, SURNAME) : needsPerson) errors.lastname = '* Escribe el apellido paterno del aval.';
  if (maternalLastname && !fits(maternalLastname, SURNAME))
    errors.maternal_lastname = '* El apellido materno solo lleva letras.';
  if (needsPerson && !birthDateOfRfc(taxId, countryToday(getCountry(deps.config.COUNTRY), deps.clock())))
    errors.tax_payer_id = '* Revisa el RFC del aval: su fecha de nacimiento debe ser la de una persona mayor de edad.';
  if (needsPerson && !input.address) errors.address = '* Escribe el domicilio del aval: el buró de crédito lo pide.';
  return errors;
}

/**
 * The columns of who a guarantor is (after personErrors): the full name, and the name's parts and
 * home address when given. The address is checked against the catalogue (not against the area the
 * lender serves: a guarantor may live anywhere; Spanish field messages otherwise) and answered as
 * `address`, to be stored sealed (sealedAddress) once the guarantor's own key exists.
 */
export async function personColumns(deps: PersonDeps, input: NamingInput) {
  const name = input.name.trim();
  const lastname = input.lastname?.trim() || null;
  const maternalLastname = input.maternal_lastname?.trim() || null;
  const address = input.address ? await homeAddress(deps, input.address) : null;
  return {
    name: [name, lastname, maternalLastname].filter(Boolean).join(' '),
    givenNames: lastname ? name : null,
    lastname,
    maternalLastname,
    address,
  };
}

/** The home address column, sealed with the guarantor's own key (`own`, decision 032), not the application's. */
export function sealedAddress(own: Pick<PersonDeps, 'cipher'>, address: CatalogAddress | null) {
  return { addressEncrypted: address ? own.cipher.encrypt(JSON.stringify(address)) : null };
}

/**
 * A guarantor's home address in the catalogue. A colonia the catalogue does not know is taken as
 * typed (the bureau files people by municipality and postcode), so its postcode must then be one of
 * the state's, as the bureau will check.
 */
async function homeAddress(deps: PersonDeps, values: NonNullable<NamingInput['address']>): Promise<CatalogAddress> {
  const country = getCountry(deps.config.COUNTRY);
  const typed = { ...values, apartment_number: values.apartment_number ?? '', neighborhood_typed: true };
  const { address } = await addressInCatalog(deps.db, country, typed, 'address.');
  if (country.hasZipCode && address.neighborhoodTyped) {
    const place = await findMunicipalityState(deps.db, address.municipalityId, address.zipCode);
    if (!place?.postcodeInState)
      throw invalidFields({ 'address.zip_code': '* El código postal no pertenece a ese estado.' });
  }
  return address;
}

/** What is known of who a guarantor is, decrypted: null when they were named by full name only. */
export function guarantorPerson(
  deps: Pick<PersonDeps, 'cipher' | 'clock' | 'config'>,
  aval: Pick<AvalRow, 'givenNames' | 'lastname' | 'maternalLastname' | 'addressEncrypted'>,
  taxId: string | null,
): GuarantorPerson | null {
  if (!aval.givenNames || !aval.lastname) return null;
  const today = countryToday(getCountry(deps.config.COUNTRY), deps.clock());
  return {
    givenNames: aval.givenNames,
    lastname: aval.lastname,
    maternalLastname: aval.maternalLastname,
    birthDate: (taxId && birthDateOfRfc(taxId, today)) || null,
    address: aval.addressEncrypted ? (JSON.parse(deps.cipher.decrypt(aval.addressEncrypted)) as CatalogAddress) : null,
  };
}
