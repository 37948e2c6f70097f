import { countryHour, getCountry, type CountryCode } from './country.js';

// What is sent to people and how (issue 34): the kinds of message, the channels, the delivery
// statuses a provider reports, and the steps an applicant is reminded at. Zod-free: the web's back
// office reads the labels.

/** Every kind of message the product sends; each has a channel policy and a WhatsApp template. */
export const MESSAGE_KINDS = [
  'phone-code',
  'consent-pin',
  'guarantor-pin',
  'guarantor-invitation',
  'signing-link',
  'signed-copy',
  'reminder',
  'guarantor-reminder',
  'signing-reminder',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  'phone-code': 'Código de verificación',
  'consent-pin': 'NIP de consulta',
  'guarantor-pin': 'NIP del aval',
  'guarantor-invitation': 'Invitación al aval',
  'signing-link': 'Enlace de firma',
  'signed-copy': 'Copia del contrato firmado',
  reminder: 'Recordatorio',
  'guarantor-reminder': 'Recordatorio al aval',
  'signing-reminder': 'Recordatorio de firma',
};

export const MESSAGE_CHANNELS = ['whatsapp', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_CHANNEL_LABELS: Record<MessageChannel, string> = { whatsapp: 'WhatsApp', sms: 'SMS' };

/**
 * A message's delivery: pending (not yet handed to the provider) → queued → sent → delivered →
 * read; failed and undelivered (the provider's word) and dropped (no longer worth sending) end it.
 */
export const MESSAGE_STATUSES = [
  'pending',
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'undelivered',
  'dropped',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  pending: 'Por enviar',
  queued: 'En cola',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'Falló',
  undelivered: 'No entregado',
  dropped: 'Ya no era necesario',
};

/** What each market's messages do unless configured otherwise. */
export interface CountryMessaging {
  /** Each kind of message's channels in order: WhatsApp first, SMS when it fails (MESSAGE_CHANNELS overrides). */
  channels: readonly MessageChannel[];
  /**
   * Minutes after the last step at which an applicant who stopped before the password is
   * reminded (at most three; REMINDER_DELAYS_MINUTES overrides them).
   */
  reminderDelaysMinutes: readonly number[];
}

export const COUNTRY_MESSAGING: Record<'do' | 'mx', CountryMessaging> = {
  do: { channels: ['whatsapp', 'sms'], reminderDelaysMinutes: [60, 24 * 60, 72 * 60] },
  mx: { channels: ['whatsapp', 'sms'], reminderDelaysMinutes: [60, 24 * 60, 72 * 60] },
};

/** The steps between the phone proof and the password where an applicant who stops is reminded. */
export const REMINDED_STEPS = ['BUSINESS_ADDRESS', 'ABOUT_STORE', 'ACCOUNT_NIP', 'PASSWORD'] as const;

/** The kinds that are reminders: never sent in the quiet hours, stopped by an opt-out. */
export const REMINDER_KINDS: readonly MessageKind[] = ['reminder', 'guarantor-reminder', 'signing-reminder'];

/** No reminder goes out from 21:00 to 08:00 on the country's clocks. */
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 8;

/** Whether `now` falls in the reminders' quiet hours in the country. */
export function inQuietHours(country: CountryCode, now: Date): boolean {
  const hour = countryHour(getCountry(country), now);
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** The word (any case, accents aside) that stops every reminder to the number that sends it. */
export const OPT_OUT_WORD = 'BAJA';

/** Whether a reply asks for no more reminders: "BAJA", "baja.", " Baja " … */
export function isOptOutReply(text: string): boolean {
  return (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z]/g, '')
      .toUpperCase() === OPT_OUT_WORD
  );
}
