import { businessNameError, nameError, type RectifiableField } from '@provee/domain';
import { AppError, invalidFields } from '../../errors.js';

/** How the refusals name each field, as the applicant chose it in "Mis datos". */
const FIELD_LABELS: Record<RectifiableField, string> = {
  name: 'el nombre',
  lastname: 'el apellido paterno',
  maternal_lastname: 'el apellido materno',
  business_name: 'el nombre del negocio',
};

/**
 * A rectification corrects the field the person asked about, nothing else: the request is the
 * person's consent to that one change. A request filed without a field names none and is refused.
 */
export function assertRequestedField(requested: string | null, field: RectifiableField): void {
  if (requested === field) return;
  const asked = requested && requested in FIELD_LABELS ? FIELD_LABELS[requested as RectifiableField] : null;
  throw new AppError(
    409,
    'PRIVACY_RECTIFY_FIELD',
    `the request asks to rectify ${requested ?? 'no field'}, not ${field}`,
    asked
      ? `Esta solicitud pide corregir ${asked}, no ${FIELD_LABELS[field]}.`
      : `Esta solicitud no pide corregir ${FIELD_LABELS[field]}.`,
  );
}

/**
 * The corrected value meets the same rules (and messages) as the registration field it replaces:
 * a rectification must not store what step 1 or step 5 would have refused. A 400 on `body.value`.
 */
export function assertRectifiedValue(field: RectifiableField, value: string): void {
  const message = field === 'business_name' ? businessNameError(value) : nameError(field, value);
  // Spelled out: the back office shows the rule itself, not "revisa los datos marcados".
  if (message) throw invalidFields({ value: message }, 'body', true);
}

/** Erased people get nothing written back: their row holds only ids and tombstones now. */
export const PERSON_ERASED = () =>
  new AppError(
    410,
    'PERSON_ERASED',
    'the application was erased',
    'Los datos de esta persona ya se eliminaron: no hay nada que rectificar.',
  );
