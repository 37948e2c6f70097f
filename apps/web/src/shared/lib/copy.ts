import type { CountryCode } from '@provee/domain';

/** All Spanish text the user reads, keyed; country overrides replace single keys. */
const es = {
  'home.title': 'Surte tu negocio con {appName}',
  'home.subtitle': 'Ingresa tu número celular y te enviaremos un código para verificarlo.',
  'home.prefix': 'Prefijo',
  'home.phone': 'Teléfono celular',
  'home.phoneValid': 'Número válido',
  'home.privacy': 'Aviso de Privacidad',
  'home.privacyIntro': 'Al continuar aceptas nuestro',
  'code.title': 'Código de seguridad',
  'code.text': 'Escribe el código de 6 dígitos que enviamos por SMS al',
  'code.resend': 'Reenviar Código',
  'code.resendIn': 'Podrás pedir otro código en',
  'code.resent': 'Te enviamos un código nuevo.',
  'code.changePhone': 'Cambiar número télefonico',
  'reverse.title': 'Confirma que este celular es tuyo',
  'reverse.text': 'Envía este mensaje desde el celular {phone}. En cuanto llegue, seguimos con tu registro.',
  'reverse.message': 'Mensaje a enviar',
  'reverse.destination': 'Al número {destination}',
  'reverse.whatsapp': 'Enviar por WhatsApp',
  'reverse.sms': 'Enviar por SMS',
  'reverse.qr': 'Escanea este código con la cámara de tu celular para abrir WhatsApp con el mensaje listo.',
  'reverse.qrAlt': 'Código QR para enviar el mensaje por WhatsApp',
  'reverse.waiting': 'Esperando tu mensaje…',
  'reverse.expiresIn': 'El mensaje vence en',
  'reverse.expired': 'El tiempo para enviar el mensaje terminó. Puedes intentarlo de nuevo.',
  'reverse.retry': 'Intentar de nuevo',
  'common.continue': 'Continuar',
  'common.understood': 'Entendido',
  'common.back': 'Regresar',
  'common.close': 'Cerrar',
  'common.loading': 'Cargando…',
  'help.label': 'Tengo dudas con mi registro',
  'error.title': '¡Parece que hubo un error!',
  'notFound.title': 'Página no encontrada',
  'notFound.text': 'La página que buscas no existe o ya no está disponible.',
  'fallback.title': 'No encontramos esta página',
  'fallback.text': 'Revisa el enlace o vuelve al inicio para continuar con tu registro.',
  'fallback.home': 'Ir al inicio',
  'stepper.step': 'Paso {step}/{total}',
  'app.loadError': 'No pudimos cargar la aplicación. Revisa tu conexión y vuelve a intentarlo.',
} as const;

export type CopyKey = keyof typeof es;

const overrides: Record<CountryCode, Partial<Record<CopyKey, string>>> = { do: {}, mx: {} };

let country: CountryCode = 'do';

export function setCopyCountry(code: CountryCode): void {
  country = code;
}

export function t(key: CopyKey, vars: Record<string, string | number> = {}): string {
  const text = overrides[country][key] ?? es[key];
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}
