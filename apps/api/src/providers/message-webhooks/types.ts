// What every provider of this kind is: its own file so that the vendors' files and index.ts (which builds them) import no cycle.
import type { MessageChannel, MessageStatus } from '@provee/domain';

/** A message's delivery as the provider reported it. */
export interface DeliveryReport {
  providerMessageId: string;
  status: Exclude<MessageStatus, 'pending' | 'dropped'>;
  /** The provider's error code of a failure (Twilio's 63003: no WhatsApp at that number). */
  errorCode: string | null;
}

/** A person's reply to one of our senders. */
export interface Reply {
  /** The provider's id of the reply (a replay is recognised by it). */
  id: string;
  /** E.164, without any channel prefix. */
  from: string;
  channel: MessageChannel;
  text: string;
  /** The reply is the template's quick-reply button, not typed text. */
  button: boolean;
}

/**
 * The messaging provider's webhooks: where it reports delivery status and replies, how its calls
 * are signed, and what it sends.
 */
export interface MessageWebhooks {
  name: 'outbox' | 'twilio';
  /** The status callback URL the senders hand the provider (absent: it reports none). */
  statusCallbackUrl: string | undefined;
  verifySignature(rawBody: string, headers: Record<string, string | string[] | undefined>, requestUrl: string): boolean;
  parseStatus(payload: unknown): DeliveryReport | null;
  parseReply(payload: unknown): Reply | null;
  /** What the provider expects as the answer (Twilio: TwiML); JSON otherwise. */
  acknowledgement?: { contentType: string; body: string };
}
