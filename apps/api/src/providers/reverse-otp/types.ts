// What every provider of this kind is: its own file so that the vendors' files and index.ts (which builds them) import no cycle.

/** An inbound message as every vendor adapter hands it over. */
export interface InboundMessage {
  /**
   * The vendor's id for this message (Twilio's MessageSid), by which a replayed delivery is
   * recognised; null when the vendor gives none (then the signed body's digest stands for it).
   */
  id: string | null;
  /** E.164 of the phone that sent it. */
  from: string;
  text: string;
}

/**
 * Reverse OTP: the user sends a message to our number; the vendor calls our webhook with it.
 * An adapter knows the number users write to, checks the vendor's signature and reads its payload.
 */
export interface ReverseOtpProvider {
  name: string;
  /** E.164 of the number users send the message to. */
  destination: string;
  /**
   * Whether the raw body carries the vendor's valid signature (headers lower-cased). `requestUrl` is
   * the path and query the webhook was called at, for vendors that sign the URL too.
   */
  verifySignature(rawBody: string, headers: Record<string, string | string[] | undefined>, requestUrl: string): boolean;
  /** The message, or null when the payload is not an inbound message (delivery receipts, pings). */
  parseInbound(payload: unknown): InboundMessage | null;
  /** What the vendor expects as a 200 answer, when not the JSON `{ data: { matched } }`. */
  acknowledgement?: { contentType: string; body: string };
}
