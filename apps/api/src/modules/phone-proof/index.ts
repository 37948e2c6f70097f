// What other modules use of phone proof. The code and reverse-OTP flows stay inside.
export { assertIpBudget, lockProofStart, recordProofStart, tooMany } from './limits.js';
export { parsePhone, phoneNumberSchema } from './phone.js';
export { sessionView } from './reverse-otp.service.js';
