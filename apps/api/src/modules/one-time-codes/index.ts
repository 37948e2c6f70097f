// What other modules use of one-time codes (phone proof, consent PIN).
export { CODE_SMS, codeMessages, consumeCode, issueCode } from './one-time-codes.service.js';
export { lockProofStart, recordProofStart } from './proof-starts.store.js';
