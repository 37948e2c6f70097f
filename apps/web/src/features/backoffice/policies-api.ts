import type { PublishPolicyBody, SavePolicyDraftBody, StartBacktestBody } from '@provee/domain';
import {
  activatePolicyRoute,
  createPolicyDraftRoute,
  discardPolicyDraftRoute,
  getBacktestRoute,
  getPolicyRoute,
  listPoliciesRoute,
  policyShadowRoute,
  publishPolicyRoute,
  savePolicyDraftRoute,
  setPolicyShadowRoute,
  startBacktestRoute,
} from '@provee/domain';
import { backofficeRequest } from './api.js';

// The policy lab (issue 33): the credit policy's versions, their backtests and the shadow run.
// Publishing, activating and the shadow ask for a recent second factor: the API answers 403
// STEP_UP_REQUIRED and the layout asks for it, then the call is made once more (api.ts).

const version = (policyId: string) => ({ policyId });

export const policies = {
  list: () => backofficeRequest(listPoliciesRoute).then((r) => r.data),
  detail: (id: string) => backofficeRequest(getPolicyRoute, { params: version(id) }).then((r) => r.data),
  /** A new draft, a copy of the live version (or of `basedOn`). */
  createDraft: (basedOn?: string) =>
    backofficeRequest(createPolicyDraftRoute, { body: basedOn ? { based_on: basedOn } : {} }).then((r) => r.data),
  save: (id: string, body: SavePolicyDraftBody) =>
    backofficeRequest(savePolicyDraftRoute, { params: version(id), body }).then((r) => r.data),
  discard: (id: string) => backofficeRequest(discardPolicyDraftRoute, { params: version(id) }).then((r) => r.data),
  publish: (id: string, body: PublishPolicyBody) =>
    backofficeRequest(publishPolicyRoute, { params: version(id), body }).then((r) => r.data),
  activate: (id: string) => backofficeRequest(activatePolicyRoute, { params: version(id) }).then((r) => r.data),
};

export const backtests = {
  /** Done at once when the range is small (200), else running as a job (202) to ask about. */
  start: (id: string, body: StartBacktestBody) =>
    backofficeRequest(startBacktestRoute, { params: version(id), body }).then((r) => r.data),
  get: (backtestId: string) => backofficeRequest(getBacktestRoute, { params: { backtestId } }).then((r) => r.data),
};

export const shadowRun = {
  view: () => backofficeRequest(policyShadowRoute).then((r) => r.data),
  /** A published version runs in shadow from now on; null stops the shadow run. */
  set: (policyId: string | null) =>
    backofficeRequest(setPolicyShadowRoute, { body: { policy_id: policyId } }).then((r) => r.data),
};
