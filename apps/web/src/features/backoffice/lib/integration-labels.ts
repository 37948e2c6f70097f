import { PARTNER_SCOPE_NAMES, type ApplicationEventType, type WebhookSendView } from '@provee/domain';

// The integrations screens' words (their lazy chunk only). An unknown code (one the API learnt
// first) shows as it is.
const named =
  <K extends string>(names: Record<K, string>) =>
  (code: string): string =>
    (names as Record<string, string>)[code] ?? code;

/** What a partner key may do, in the words of the admin who hands it over (the domain's). */
export const scopeName = named(PARTNER_SCOPE_NAMES);

/** What each event tells the lender's systems (its code is what their developers read). */
export const eventTypeName = named<ApplicationEventType>({
  'application.created': 'Solicitud creada',
  'application.step_changed': 'Cambio de paso',
  'consent.given': 'Consentimiento dado',
  'bureau.answered': 'Respuesta del buró',
  'decision.made': 'Decisión de preaprobación',
  'guarantor.named': 'Aval registrado',
  'guarantor.consented': 'Consentimiento del aval',
  'guarantor.decided': 'Decisión sobre el aval',
  'identity.verified': 'Identidad verificada',
  'identity.rejected': 'Identidad rechazada',
  'identity.under_review': 'Identidad en revisión manual',
  'contract.signed': 'Contrato firmado',
  'contract.sealed': 'Contrato sellado',
  'contract.timestamped': 'Sello de tiempo del contrato',
  'contract.nom151_issued': 'Constancia NOM-151 del contrato',
  'lender_decision.recorded': 'Decisión del prestamista',
  'application.erased': 'Datos personales borrados',
});

export const sendStatusName = named<WebhookSendView['status']>({
  PENDING: 'Pendiente',
  DELIVERED: 'Entregada',
  FAILED: 'Fallida',
});
