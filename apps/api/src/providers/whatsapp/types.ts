// What every provider of this kind is: its own file so that the vendors' files and index.ts (which builds them) import no cycle.
import type { MessageKind } from '@provee/domain';
import type { Accepted } from '../sms/types.js';

export interface WhatsAppMessage {
  /** E.164 (the provider adds its channel's prefix). */
  to: string;
  kind: MessageKind;
  /** The template's variables, in order ({{1}}, {{2}}…). */
  variables: string[];
  /** The same message as text (what the simulator's inbox shows). */
  body: string;
  statusCallback?: string | undefined;
}

/**
 * Sends business-initiated WhatsApp messages, each through the approved template of its kind;
 * throws SmsError when the provider refuses or cannot be reached. A number without WhatsApp is
 * accepted and reported failed later (its status callback).
 */
export interface WhatsAppProvider {
  name: 'outbox' | 'twilio';
  /** Whether a kind can go by WhatsApp here (its template is configured). */
  sends(kind: MessageKind): boolean;
  send(message: WhatsAppMessage): Promise<Accepted>;
}
