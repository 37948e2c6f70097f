// What other modules use of phone proof. The code and reverse-OTP flows stay inside.
export {
  reverseOtpMessage,
  reverseOtpState,
  sessionKeyHash,
  startReverseOtp,
  VERIFIED_GUARANTOR_SESSION_JOB,
} from './reverse-otp.service.js';
export { listPendingSessions } from './reverse-otp.store.js';
