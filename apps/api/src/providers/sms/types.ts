// What every provider of this kind is: its own file so that the vendors' files and index.ts (which builds them) import no cycle.

export interface SmsMessage {
  /** E.164 */
  to: string;
  body: string;
}

/** Sends a text message; throws SmsError when the provider refuses or cannot be reached. */
export interface SmsProvider {
  name: 'outbox' | 'twilio';
  send(message: SmsMessage): Promise<void>;
}
