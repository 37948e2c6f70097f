/**
 * The Spanish texts of the guarantor (aval) screens, SPEC §2.5. Kept with the feature; the generic
 * ones (reverse-OTP message box, 'Se ha enviado el nip nuevamente', phone labels) come from
 * shared/lib/copy.ts.
 */
const guarantorCopy = {
  'nip.title': 'NIP del aval',
  'nip.greeting': 'Hola, {name}',
  'nip.greetingUnnamed': 'Hola',
  'nip.named': '{shopkeeper} te nombró como aval de su solicitud de crédito.',
  'nip.namedUnnamed': 'Te nombraron como aval de una solicitud de crédito.',
  'nip.sentTo':
    'Te enviamos un NIP de 4 dígitos por SMS al {phone}. Escríbelo para autorizar la consulta de tu historial crediticio.',
  'nip.label': 'NIP de consulta',
  'nip.accept': 'Aceptar consulta',
  'nip.resend': 'Reenviar código',
  'nip.resendIn': 'Podrás pedir otro código en',
  'nip.changePhone': 'Cambiar número',
  'phone.title': 'Cambiar número',
  'phone.text': 'Escribe el nuevo número celular del aval. Le enviaremos un NIP nuevo.',
  'phone.confirm': 'Enviar NIP',
  'phone.cancel': 'Cancelar',
  'thanks.title': '¡Gracias!',
  'thanks.text': 'Gracias por aceptar ser aval. Nuestro equipo validará la información.',
  'thanks.finish': 'Finalizar',
  'verify.title': 'Consulta del aval',
  'verify.request': '{shopkeeper} tiene una solicitud de crédito y te eligió como su aval.',
  'verify.requestUnnamed': 'Alguien te eligió como aval de su solicitud de crédito.',
  'verify.ask': 'Para continuar, acepta la consulta de tu historial crediticio a favor de {lender}.',
  'verify.how': 'Después enviarás un mensaje desde tu celular, por WhatsApp o SMS, para validar que es tuyo.',
  'verify.accept': 'Aceptar Consulta',
  'verify.answered': 'Ya registramos tu respuesta. ¡Gracias!',
  'verify.loading': 'Validando tu celular…',
  'verify.send': 'Falta un paso: envía este mensaje desde tu celular para validar que es tuyo.',
  'verify.step1': 'Toca «Enviar por WhatsApp» o «Enviar por SMS».',
  'verify.step2': 'Envía el mensaje tal como aparece, sin cambiarlo.',
  'verify.step3': 'Vuelve a esta página: aquí verás el resultado.',
  'verify.successTitle': 'Excelente',
  'verify.successText': 'Tu celular fue validado. Pronto te llamaremos para continuar.',
  'verify.errorTitle': 'Lo sentimos',
  'verify.errorText': 'No pudimos validar tu celular. Por favor, contacta a soporte.',
  'verify.support': 'Contactar a soporte',
  'verify.supportChat': 'Hola, soy aval de una solicitud de crédito y no pude validar mi celular.',
} as const;

export type GuarantorCopyKey = keyof typeof guarantorCopy;

export function g(key: GuarantorCopyKey, vars: Record<string, string | number> = {}): string {
  return guarantorCopy[key].replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}
