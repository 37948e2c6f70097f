// What every provider of this kind is: its own file so that the vendors' files and index.ts (which builds them) import no cycle.
export interface SmsMessage {
  /** E.164 */
  to: string;
  body: string;
  /** Where the provider reports the message's delivery status (providers/message-webhooks). */
  statusCallback?: string | undefined;
}

/** What the provider answered: its id for the message, which its status reports name. */
export interface Accepted {
  /** Null when the provider named none (its status reports cannot be matched then). */
  providerMessageId: string | null;
}

/** Sends a text message; throws SmsError when the provider refuses or cannot be reached. */
export interface SmsProvider {
  name: 'outbox' | 'twilio';
  send(message: SmsMessage): Promise<Accepted>;
}
