import { route } from './route.js';

// The policy lab (issue 33): versions of the credit policy, their backtests and the shadow run.
const policies = '/api/backoffice/policies';
export const listPoliciesRoute = route('GET', policies);
export const createPolicyDraftRoute = route('POST', policies);
export const getPolicyRoute = route('GET', `${policies}/:policyId`);
export const savePolicyDraftRoute = route('PUT', `${policies}/:policyId`);
export const discardPolicyDraftRoute = route('DELETE', `${policies}/:policyId`);
export const publishPolicyRoute = route('POST', `${policies}/:policyId/publish`);
export const activatePolicyRoute = route('POST', `${policies}/:policyId/activate`);
export const startBacktestRoute = route('POST', `${policies}/:policyId/backtests`);
export const getBacktestRoute = route('GET', '/api/backoffice/policy-backtests/:backtestId');
export const policyShadowRoute = route('GET', '/api/backoffice/policy-shadow');
export const setPolicyShadowRoute = route('PUT', '/api/backoffice/policy-shadow');
