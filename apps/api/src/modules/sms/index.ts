// Sending SMS for every module that texts a person (phone proof, consent PIN, invitations).
export { sendSms } from './send-sms.js';
