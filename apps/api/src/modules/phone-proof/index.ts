// What other modules use of phone proof. The code and reverse-OTP flows stay inside.
export { assertSmsIpBudget, lockProofStart, recordProofStart, tooMany } from './limits.js';
export { parsePhone, phoneNumberSchema } from './phone.js';
export { reverseOtpMessage, reverseOtpState, sessionKeyHash, startReverseOtp } from './reverse-otp.service.js';
