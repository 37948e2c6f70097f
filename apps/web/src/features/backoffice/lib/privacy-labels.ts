import type { PrivacyRequestView } from '@provee/domain';

/** How staff read a privacy request's kind, state and the field a rectification is about. */
export const KIND_NAMES: Record<PrivacyRequestView['kind'], string> = {
  access: 'Acceso',
  rectification: 'Rectificación',
  cancellation: 'Cancelación',
  opposition: 'Oposición',
};

export const STATE_NAMES: Record<PrivacyRequestView['state'], string> = {
  RECEIVED: 'Recibida',
  IN_PROGRESS: 'En trámite',
  DONE: 'Atendida',
  REFUSED: 'Negada',
};

export const FIELD_NAMES: Record<NonNullable<PrivacyRequestView['field']>, string> = {
  name: 'Nombre',
  lastname: 'Primer apellido',
  maternal_lastname: 'Segundo apellido',
  business_name: 'Nombre del negocio',
};
