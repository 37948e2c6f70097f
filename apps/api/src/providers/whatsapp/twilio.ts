import type { MessageKind } from '@provee/domain';
import { postTwilioMessage, type TwilioOptions } from '../sms/twilio.js';
import type { WhatsAppProvider } from './types.js';

/**
 * WhatsApp through Twilio's Messages API with Content templates
 * (https://www.twilio.com/docs/whatsapp/api#send-a-whatsapp-message-using-a-content-template):
 * `From` and `To` carry the `whatsapp:` prefix, `ContentSid` names the approved template (HX…) and
 * `ContentVariables` is a JSON object of its variables by position ({"1": "…"}). A kind with no
 * template configured goes by SMS (the channel policy asks `sends`).
 */
export function createTwilioWhatsApp(
  options: TwilioOptions & { templates: Partial<Record<MessageKind, string>> },
): WhatsAppProvider {
  return {
    name: 'twilio',
    sends: (kind) => !!options.templates[kind],
    send({ to, kind, variables, statusCallback }) {
      const contentSid = options.templates[kind];
      if (!contentSid) throw new Error(`no WhatsApp template for ${kind}`);
      return postTwilioMessage(options, {
        To: `whatsapp:${to}`,
        From: `whatsapp:${options.from}`,
        ContentSid: contentSid,
        ContentVariables: JSON.stringify(Object.fromEntries(variables.map((value, i) => [String(i + 1), value]))),
        ...(statusCallback ? { StatusCallback: statusCallback } : {}),
      });
    },
  };
}
