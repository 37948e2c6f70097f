// Sending SMS for every module that texts a person (phone proof, consent PIN, invitations, links).
export { sendSms } from './send-sms.js';
export {
  deliverSms,
  enqueueSms,
  SMS_SEND_JOB,
  smsSendJob,
  smsUnavailable,
  type QueuedSms,
  type SmsDeps,
  type SmsJobData,
  type SmsPurpose,
} from './sms-job.js';
export type { FirstTry } from './first-tries.js';
