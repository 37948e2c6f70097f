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

/** The steps between the phone proof and the password where an applicant who stops is reminded. */
export const REMINDED_STEPS = ['BUSINESS_ADDRESS', 'ABOUT_STORE', 'ACCOUNT_NIP', 'PASSWORD'] as const;

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
