import { TRANSITIONS, type ApplicationEventType } from '@provee/domain';

/** One public event of an application: its type and data (ids and states only). */
export interface PublicEvent {
  type: ApplicationEventType;
  data: Record<string, unknown>;
}

/** The audit event as appended (its chain id, who, what). */
interface Audited {
  type: string;
  actor: string;
  payload: Record<string, unknown>;
}

const pick = (payload: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, payload[key] ?? null]));

const IDENTITY_EVENTS: Record<string, ApplicationEventType> = {
  APPROVED: 'identity.verified',
  REJECTED: 'identity.rejected',
  UNDER_REVIEW: 'identity.under_review',
};

/** The audit event's own public event, if the lender's systems hear of this kind. */
function ownEvents({ type, payload }: Audited): PublicEvent[] {
  switch (type) {
    case 'user.registered':
      return [{ type: 'application.created', data: {} }];
    case 'consent.given':
      return [{ type: 'consent.given', data: { person: 'titular', ...pick(payload, ['folio', 'version']) } }];
    case 'decision.made':
      return [
        { type: 'bureau.answered', data: { person: 'titular', ...pick(payload, ['bureau_report_folio']) } },
        {
          type: 'decision.made',
          data: pick(payload, ['decision_id', 'result', 'amount', 'currency', 'reasons', 'policy_version']),
        },
      ];
    case 'guarantor.named':
      return [{ type: 'guarantor.named', data: pick(payload, ['aval_id', 'aval_type']) }];
    case 'guarantor.consent_given':
      return [{ type: 'guarantor.consented', data: pick(payload, ['aval_id', 'folio', 'channel']) }];
    case 'guarantor.decision_made':
      return [
        {
          type: 'bureau.answered',
          data: { person: 'guarantor', ...pick(payload, ['aval_id', 'bureau_report_folio']) },
        },
        {
          type: 'guarantor.decided',
          data: pick(payload, ['decision_id', 'aval_id', 'aval_type', 'result', 'reasons', 'policy_version']),
        },
      ];
    case 'identity.answered':
    case 'identity.review_decided': {
      const event = IDENTITY_EVENTS[String(payload.status)];
      return event
        ? [{ type: event, data: pick(payload, ['verification_id', 'signer_id', 'person_type', 'aval_id', 'status']) }]
        : [];
    }
    case 'contract.signed':
      return [
        {
          type: 'contract.signed',
          data: pick(payload, ['contract_id', 'contract_sha256', 'signer_id', 'person_type', 'aval_id']),
        },
      ];
    case 'contract.sealed':
      return [{ type: 'contract.sealed', data: pick(payload, ['contract_id', 'contract_sha256', 'development']) }];
    case 'contract.timestamped':
      return [{ type: 'contract.timestamped', data: pick(payload, ['contract_id', 'contract_sha256', 'time']) }];
    case 'contract.nom151_issued':
      return [
        {
          type: 'contract.nom151_issued',
          data: pick(payload, ['contract_id', 'contract_sha256', 'provider', 'reference']),
        },
      ];
    case 'lender.decision_recorded':
      return [
        {
          type: 'lender_decision.recorded',
          data: pick(payload, [
            'lender_decision_id',
            'outcome',
            'amount',
            'currency',
            'term_months',
            'annual_rate',
            'reason',
            'reference',
          ]),
        },
      ];
    case 'privacy.erased': // modules/privacy's ERASED_EVENT
      return [
        {
          type: 'application.erased',
          data: { aval_ids: payload.aval_ids ?? [], legal_term_passed: payload.contract_term_passed === true },
        },
      ];
    default:
      return [];
  }
}

/** A move of the step engine (its payload names the transition and where it ended), as a step change. */
function stepChange({ payload }: Audited): PublicEvent[] {
  const name = payload.transition;
  const to = payload.to as { step?: unknown; status?: unknown } | undefined;
  if (typeof name !== 'string' || !Object.hasOwn(TRANSITIONS, name) || typeof to?.step !== 'string') return [];
  const { from } = TRANSITIONS[name as keyof typeof TRANSITIONS];
  return [
    {
      type: 'application.step_changed',
      data: {
        transition: name,
        from: { step: from.step, status: from.status },
        to: { step: to.step, status: to.status },
      },
    },
  ];
}

/**
 * What the lender's systems hear of one audit event: its own public event(s), then the step change
 * of the move it recorded. A whitelist of fields: nothing else of the audit payload goes out.
 */
export function publicEventsOf(audited: Audited): PublicEvent[] {
  return [...ownEvents(audited), ...stepChange(audited)];
}
