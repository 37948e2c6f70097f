// Its own file so that the vendors' files and index.ts (which builds them) import no cycle.
/** Sending failed: the provider refused the message or could not be reached. */
export class SmsError extends Error {}
