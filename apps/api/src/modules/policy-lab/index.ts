// The policy lab in the back office (issue 33): versions, backtests, shadow, four eyes.
export { backtestJob, POLICY_BACKTEST_JOB } from './backtest.js';
export { policyRoutes } from './policies.routes.js';
