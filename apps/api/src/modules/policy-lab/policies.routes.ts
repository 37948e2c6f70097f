import {
  activatePolicyCall,
  createPolicyDraftCall,
  discardPolicyDraftCall,
  getBacktestCall,
  getPolicyCall,
  listPoliciesCall,
  policyShadowCall,
  publishPolicyCall,
  savePolicyDraftCall,
  setPolicyShadowCall,
  startBacktestCall,
} from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { backtestView, startBacktest } from './backtest.js';
import { shadowView, setShadowAndView } from './shadow.js';
import {
  activate,
  createDraft,
  discard,
  listVersions,
  publish,
  saveDraftDocument,
  versionDetail,
} from './versions.service.js';

/**
 * The policy lab in the back office (issue 33): analysts draft and backtest; an admin who did not
 * write a version publishes it, makes an earlier one live again or runs one in shadow, each after a
 * recent second factor (like every other change of who gets what).
 */
export async function policyRoutes(app: App): Promise<void> {
  const read = { onRequest: staffOnly('policy') };
  const draft = { onRequest: staffOnly('policy') };
  const decide = { onRequest: staffOnly('publishPolicy', { stepUp: true }) };

  register(app, listPoliciesCall, read, async () => ({ data: await listVersions(app) }));
  register(app, getPolicyCall, read, async (request) => ({
    data: await versionDetail(app, request.staffMember!, request.params.policyId),
  }));
  register(app, createPolicyDraftCall, draft, async (request, reply) => {
    reply.code(201);
    return { data: await createDraft(app, request.staffMember!, request.body.based_on) };
  });
  register(app, savePolicyDraftCall, draft, async (request) => ({
    data: await saveDraftDocument(app, request.staffMember!, request.params.policyId, request.body),
  }));
  register(app, discardPolicyDraftCall, draft, async (request) => ({
    data: await discard(app, request.staffMember!, request.params.policyId),
  }));
  register(app, publishPolicyCall, decide, async (request) => ({
    data: await publish(app, request.staffMember!, request.params.policyId, request.body),
  }));
  register(app, activatePolicyCall, decide, async (request) => ({
    data: await activate(app, request.staffMember!, request.params.policyId),
  }));
  register(app, startBacktestCall, draft, async (request, reply) => {
    const { status, view } = await startBacktest(
      {
        db: app.db,
        clock: app.clock,
        policies: app.policies,
        jobs: app.jobs,
        log: request.log,
        inlineMax: app.config.POLICY_BACKTEST_INLINE_MAX,
      },
      request.staffMember!,
      request.params.policyId,
      request.body,
    );
    reply.code(status);
    return { data: view };
  });
  register(app, getBacktestCall, read, async (request) => ({
    data: await backtestView(app, request.params.backtestId),
  }));
  register(app, policyShadowCall, read, async () => ({ data: await shadowView(app) }));
  register(app, setPolicyShadowCall, decide, async (request) => ({
    data: await setShadowAndView(app, request.staffMember!, request.body.policy_id),
  }));
}
