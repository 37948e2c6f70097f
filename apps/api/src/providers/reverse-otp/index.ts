import type { Config } from '../../config.js';
import { createSimulatorReverseOtp } from './simulator.js';
import { createTwilioReverseOtp } from './twilio.js';

import type { ReverseOtpProvider } from './types.js';

export type { InboundMessage, ReverseOtpProvider } from './types.js';

export function createReverseOtpProvider(
  config: Config,
  webhookKey: Buffer,
): ReverseOtpProvider & {
  sign?: (rawBody: string) => string;
} {
  switch (config.REVERSE_OTP_PROVIDER) {
    case 'simulator':
      return createSimulatorReverseOtp(config.REVERSE_OTP_DESTINATION, webhookKey);
    case 'twilio':
      // config.ts refuses to start without these when twilio is chosen.
      return createTwilioReverseOtp({
        authToken: config.TWILIO_AUTH_TOKEN!,
        destination: config.REVERSE_OTP_DESTINATION,
        publicBaseUrl: config.PUBLIC_BASE_URL!,
      });
  }
}
