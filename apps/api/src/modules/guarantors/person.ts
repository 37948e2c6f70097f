import { birthDateOfRfc, countryToday, getCountry, type CountryCode, type RegisterAvalPayload } from '@provee/domain';
import type { FieldCipher } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import type { BureauProvider } from '../../providers/bureau/index.js';
import { addressInCatalog, type CatalogAddress } from '../catalog/index.js';
import type { GuarantorPerson } from '../credit/index.js';
import type { AvalRow } from './guarantors.store.js';

const NAME = /^[\p{L} .'-]{2,80}$/u;
const SURNAME = /^[\p{L} .'-]{2,60}$/u;

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
  const lastname = input.lastname?.trim();
  const maternalLastname = input.maternal_lastname?.trim();
  const { needsPerson } = deps.bureau;
  if (!NAME.test(input.name.trim()))
    errors.name = lastname ? '* Escribe el nombre (o los nombres) del aval.' : '* Escribe el nombre completo del aval.';
  if (lastname ? !SURNAME.test(lastname) : needsPerson) errors.lastname = '* Escribe el apellido paterno del aval.';
  if (maternalLastname && !SURNAME.test(maternalLastname))
    errors.maternal_lastname = '* El apellido materno solo lleva letras.';
  if (needsPerson && !birthDateOfRfc(taxId, countryToday(getCountry(deps.config.COUNTRY), deps.clock())))
    errors.tax_payer_id = '* El RFC del aval no tiene una fecha de nacimiento válida, revísalo.';
  if (needsPerson && !input.address) errors.address = '* Escribe el domicilio del aval: el buró de crédito lo pide.';
  return errors;
}

/**
 * The columns of who a guarantor is (after personErrors): the full name, and the name's parts and
 * home address when given. The address is checked against the catalogue (not against the area the
 * lender serves: a guarantor may live anywhere; Spanish field messages otherwise) and stored encrypted.
 */
export async function personColumns(deps: PersonDeps, input: NamingInput) {
  const name = input.name.trim();
  const lastname = input.lastname?.trim() || null;
  const maternalLastname = input.maternal_lastname?.trim() || null;
  // A colonia the catalogue does not know is taken as typed: the bureau files by municipality and postcode.
  const address = input.address
    ? (
        await addressInCatalog(
          deps.db,
          getCountry(deps.config.COUNTRY),
          { ...input.address, apartment_number: input.address.apartment_number ?? '', neighborhood_typed: true },
          'address.',
        )
      ).address
    : null;
  return {
    name: [name, lastname, maternalLastname].filter(Boolean).join(' '),
    givenNames: lastname ? name : null,
    lastname,
    maternalLastname,
    addressEncrypted: address ? deps.cipher.encrypt(JSON.stringify(address)) : null,
  };
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
