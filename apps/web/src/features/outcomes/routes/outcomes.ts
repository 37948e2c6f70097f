// How an application ended up: each screen is small, so they travel in one file loaded on demand,
// one chunk name in the first load's list rather than six (the /home budget is counted in bytes:
// apps/web/test/bundle-budget.test.ts).
export { ApprovedRoute } from './approved.js';
export { DeclinedRoute } from './declined.js';
export { DisbursedRoute } from './disbursed.js';
export { RejectedLocationRoute } from './rejected-location.js';
export { RejectedRoute } from './rejected.js';
export { SomethingHappenedRoute } from './something-happened.js';
