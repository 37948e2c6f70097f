import {
  APPLICATION_STATUS_NAMES,
  AVAL_STATUS_NAMES,
  AVAL_TYPE_NAMES,
  CIVIL_STATUSES,
  STEP_NAMES,
  type StaffRole,
} from '@provee/domain';

export { AVAL_TYPE_NAMES, STEP_NAMES };

// Spanish names of the codes staff read. An unknown code (a new one the API learnt first) shows as is.
export const label =
  <K extends string>(names: Record<K, string>) =>
  (code: string | null | undefined): string =>
    code ? ((names as Record<string, string>)[code] ?? code) : '—';

export const ROLE_NAMES: Record<StaffRole, string> = { advisor: 'Asesor', analyst: 'Analista', admin: 'Administrador' };
export const roleName = label(ROLE_NAMES);

export const STATUS_NAMES = APPLICATION_STATUS_NAMES;
export const statusName = label(STATUS_NAMES);

export const stepName = label(STEP_NAMES);

export const COUNTRY_NAMES = { do: 'República Dominicana', mx: 'México' } as const;
export const countryName = label(COUNTRY_NAMES);

export const avalTypeName = label(AVAL_TYPE_NAMES);
export const avalStatusName = label(AVAL_STATUS_NAMES);

export const personTypeName = label({ titular: 'Titular', collateral: 'Aval' });
export const signerStateName = label({
  AWAITING_VERIFICATION: 'Esperando verificación',
  VERIFYING: 'Verificando',
  UNDER_REVIEW: 'En revisión manual',
  VERIFICATION_REJECTED: 'Verificación rechazada',
  VERIFIED: 'Verificado',
  SIGNED: 'Firmado',
});
export const verificationStatusName = label({
  PENDING: 'Pendiente',
  APPROVED: 'Aprobada',
  REJECTED: 'Rechazada',
  UNDER_REVIEW: 'En revisión manual',
});
export const verificationTypeName = label({ VERIFICATION: 'Verificación', REVERIFICATION: 'Reverificación' });
export const documentKindName = label({
  id_front: 'Frente de la identificación',
  id_back: 'Reverso de la identificación',
  selfie: 'Selfie',
});

export const bureauStatusName = label({
  PENDING: 'Pendiente',
  RUNNING: 'Consultando',
  DONE: 'Respondida',
  FAILED: 'Falló',
});
export const decisionResultName = label({ APPROVED: 'Aprobada', REJECTED: 'Rechazada', REFUSED: 'Rechazada' });

export const contactTypeName = label({
  CALL_ADVISER: 'Pidió una llamada',
  WHATSAPP_CHAT: 'Pidió WhatsApp',
  WITH_ADVISER: 'Quiere un asesor',
});
/** A task of the advisor queue: a contact request, or a lead (INTERNAL: the web app's, a login). */
export const taskKindName = label({
  CALL_ADVISER: 'Pidió una llamada',
  WHATSAPP_CHAT: 'Pidió WhatsApp',
  WITH_ADVISER: 'Quiere un asesor',
  INTERNAL: 'Inició su registro',
});

export const chainName = label({
  application: 'Cadena de la solicitud',
  phone: 'Cadena del teléfono (antes del registro)',
});
export const chainReason = label({
  'hash-mismatch': 'el contenido del evento no coincide con su huella',
  'link-mismatch': 'el evento no enlaza con el anterior',
});

/** The registration form's own labels (Soltero(a), Casado(a)…). */
export const maritalStatusName = label(
  Object.fromEntries(CIVIL_STATUSES.map((status) => [status.value, status.label])) as Record<string, string>,
);
