import type { ApplicationStatus, NextStep } from './application.js';

/**
 * Spanish names of the application's steps and guarantor types as the lender's staff read them:
 * the back office shows them, and the API's refusals of a staff action name them (issue 27).
 */
export const STEP_NAMES: Record<NextStep, string> = {
  TAX_ACCOUNT: 'Datos personales',
  BUSINESS_ADDRESS: 'Dirección del negocio',
  ABOUT_STORE: 'Datos del negocio',
  ACCOUNT_NIP: 'Envío de NIP',
  ACCOUNT_BUREAU: 'Consulta al buró',
  PASSWORD: 'Contraseña',
  INVENTORY: 'Inventario',
  PARTNER_FORM: 'Datos del socio',
  PARTNER_BUREAU: 'Buró del socio',
  PARTNER_NIP: 'NIP del socio',
  COLLATERAL_FORM: 'Datos del aval',
  COLLATERAL_BUREAU: 'Buró del aval',
  COLLATERAL_NIP: 'NIP del aval',
  WISH_NEW_COLLATERAL: 'Quiere otro aval',
  ASK_NEW_COLLATERAL: 'Pedir otro aval',
  ASK_REPLACE_PARTNER: 'Reemplazar socio',
  PENDING_APPROVAL: 'Pendiente de aprobación',
  APPROVED: 'Aprobado por el prestamista',
  DISBURSED: 'Desembolsado',
};

export const AVAL_TYPE_NAMES = { PARTNER: 'Socio', COLLATERAL: 'Aval solidario' } as const;

export const APPLICATION_STATUS_NAMES: Record<ApplicationStatus, string> = {
  IN_PROGRESS: 'En curso',
  WAITING: 'En espera',
  REJECTED: 'Rechazada',
};

/** A guarantor's standing: PENDING (waiting for consent) → CONSENTED → APPROVED or REFUSED; REPLACED. */
export const AVAL_STATUS_NAMES = {
  PENDING: 'Esperando consentimiento',
  CONSENTED: 'Consintió',
  APPROVED: 'Aprobado',
  REFUSED: 'No aprobado',
  REPLACED: 'Reemplazado',
} as const;
