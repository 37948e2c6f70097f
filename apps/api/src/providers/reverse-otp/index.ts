import type { Config } from '../../config.js';
import { createSimulatorReverseOtp } from './simulator.js';

/** An inbound message as every vendor adapter hands it over. */
export interface InboundMessage {
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
  /** Whether the raw body carries the vendor's valid signature (headers lower-cased). */
  verifySignature(rawBody: string, headers: Record<string, string | string[] | undefined>): boolean;
  /** The message, or null when the payload is not an inbound message (delivery receipts, pings). */
  parseInbound(payload: unknown): InboundMessage | null;
}

export function createReverseOtpProvider(
  config: Config,
  webhookKey: Buffer,
): ReverseOtpProvider & {
  sign?: (rawBody: string) => string;
} {
  switch (config.REVERSE_OTP_PROVIDER) {
    case 'simulator':
      return createSimulatorReverseOtp(config.REVERSE_OTP_DESTINATION, webhookKey);
  }
}
