import type { ApplicationState, TransitionName } from './application.js';

/**
 * The funnel's milestones after the start of an application: the first time it made a move (and,
 * for the credit decision, ended where a pre-approval ends), and the titular's signature. The step
 * engine records each as it happens (`application_milestones`), so the funnel reads one row per
 * applicant of its period, whatever the history holds (issue 35).
 */
export const FUNNEL_MILESTONES = [
  { key: 'tax_id', label: 'Identificación fiscal', transition: 'tax-id' },
  { key: 'business_address', label: 'Dirección del negocio', transition: 'address' },
  { key: 'business', label: 'Datos del negocio', transition: 'business' },
  { key: 'nip_sent', label: 'NIP enviado', transition: 'nip-sent' },
  { key: 'consent', label: 'Consulta autorizada', transition: 'consent' },
  {
    key: 'pre_approved',
    label: 'Preaprobado',
    transition: 'decision',
    endsIn: { step: 'PASSWORD', status: 'IN_PROGRESS' },
  },
  { key: 'password', label: 'Contraseña creada', transition: 'password' },
  { key: 'contract_signed', label: 'Contrato firmado', transition: null },
] as const satisfies readonly {
  key: string;
  label: string;
  /** The application's move that reaches it; null for the titular's signature (a signer's move). */
  transition: TransitionName | null;
  endsIn?: ApplicationState;
}[];

export type FunnelMilestone = (typeof FUNNEL_MILESTONES)[number]['key'];

/** The milestone an application's move reaches, if any. */
export function milestoneOf(transition: TransitionName, to: ApplicationState): FunnelMilestone | undefined {
  const milestone = FUNNEL_MILESTONES.find(
    (m) =>
      m.transition === transition && (!('endsIn' in m) || (m.endsIn.step === to.step && m.endsIn.status === to.status)),
  );
  return milestone?.key;
}
