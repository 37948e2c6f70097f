import type { CountryCode } from '@provee/domain';

/**
 * The texts of every screen past the landing (the landing's and the shell's are in copy.ts, in the
 * first load). The router loads this file with the first of those screens: loadScreenCopy().
 */
const es = {
  'code.title': 'Código de seguridad',
  'code.text': 'Escribe el código de 6 dígitos que enviamos por SMS al',
  'code.resend': 'Reenviar Código',
  'code.resendIn': 'Podrás pedir otro código en',
  'code.resent': 'Te enviamos un código nuevo.',
  // Back within the resend interval (issue 27): no new code went out; the last one still works.
  'code.textLast': 'Escribe el último código que te enviamos por SMS al',
  'code.lastExpiresIn': 'Ese código vence en',
  'code.lastExpired': 'Ese código ya venció. Pide uno nuevo.',
  'code.textWait': 'Pide un código nuevo para el',
  // A tab without a session (its session ended, a saved link): prove the number to go on.
  'proof.resume': 'Tu registro está guardado. Para seguir, vuelve a confirmar tu número.',
  'proof.confirmTitle': 'Confirma tu número',
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
  // SPEC §8's text asks to scan the QR code, which only a wide screen shows; a phone gets this one.
  'reverse.failedOnPhone':
    'La verificación es incorrecta. Regresa a la página de inicio y vuelve a intentarlo desde el celular con el que hiciste la solicitud.',
  'registration.stepper': 'Registro',
  // A registration step already saved, reached by going back (issue 27).
  'saved.editable': 'Ya guardamos estos datos. Si cambias algo, lo actualizamos al continuar.',
  'saved.readOnly':
    'Ya enviamos estos datos y no se pueden cambiar porque tu solicitud ya avanzó. Si hay un error, escríbenos por el chat de ayuda.',
  'saved.address': 'Domicilio guardado',
  'aboutYou.title': 'Sobre ti',
  'aboutYou.subtitle': 'Cuéntanos quién eres. Usa tus datos tal como aparecen en tu identificación.',
  'aboutYou.name': 'Nombres',
  'aboutYou.lastname': 'Apellido paterno',
  'aboutYou.maternalLastname': 'Apellido materno (opcional)',
  'aboutYou.birthDate': 'Fecha de nacimiento',
  'aboutYou.day': 'Día',
  'aboutYou.month': 'Mes',
  'aboutYou.year': 'Año',
  'aboutYou.residency': '¿Cuánto tiempo llevas viviendo en tu domicilio actual?',
  'aboutYou.maritalStatus': 'Estado civil',
  'common.select': 'Selecciona',
  // Narrow selects (day, month, year side by side on a 360 px screen).
  'common.selectShort': 'Elige',
  'taxId.title': 'Confirma que tu {label} sea correcto',
  'taxId.subtitle': 'Lo usamos para revisar tu historial de crédito. Revísalo con calma.',
  'taxId.length': '{count} de {length} caracteres',
  'taxId.lookup': '¿No conoces tu {label}? Consúltalo aquí',
  'taxId.confirm': 'Mi {label} es correcto',
  'address.searchTitle': '¿Dónde está tu negocio?',
  'address.searchSubtitle': 'Escribe el sector o la calle de tu negocio y elige tu dirección de la lista.',
  'address.searchLabel': 'Dirección del negocio',
  'address.searchEmpty': 'No encontramos direcciones con ese nombre.',
  'address.notFound': 'No encontre mi domicilio',
  'address.formTitle': 'Domicilio de tu negocio',
  'address.zip': 'Código postal',
  'address.state': 'Estado',
  'address.city': 'Municipio',
  'address.street': 'Calle',
  'address.neighborhoodMissing': 'Mi colonia no aparece',
  'address.neighborhoodPick': 'Elegir de la lista',
  'address.streetNumber': 'Número exterior',
  'address.apartment': 'Interior (opcional)',
  'address.consent':
    'Al dar clic en Continuar autorizas a {appName} a consultar tu historial crediticio ante las sociedades de información crediticia.',
  'business.title': 'Negocio',
  'business.subtitle': 'Ahora cuéntanos de tu {storeType}.',
  'business.name': 'Nombre del negocio',
  'business.age': '¿Cuánto tiempo tiene tu negocio?',
  'business.type': 'Giro del negocio',
  'business.typeOther': '¿A qué se dedica tu negocio?',
  'business.sales': 'Ventas promedio por semana',
  'rejected.title': 'Lo sentimos',
  'rejected.text':
    'Por ahora tu negocio no cumple con los requisitos para el crédito. Si crees que es un error, escríbenos.',
  'rejected.support': 'Contactar a soporte',
  'rejected.supportChat': 'Hola, mi solicitud de crédito fue rechazada y quiero más información.',
  'outOfService.title': 'Aún no llegamos a tu zona',
  'outOfService.text': 'Por ahora solo damos servicio en algunos municipios. Te avisaremos cuando lleguemos a tu zona.',
  'outOfService.finish': 'Finalizar',
  'nip.title': 'NIP de Consulta',
  'nip.subtitle':
    'Te enviamos un NIP de 4 dígitos por SMS al {phone}. Escríbelo para autorizar la consulta de tu historial crediticio.',
  'nip.label': 'NIP de consulta',
  'nip.resend': 'Reenviar NIP',
  'nip.resent': 'Se ha enviado el nip nuevamente',
  'nip.resendIn': 'Podrás pedir otro NIP en',
  'nip.accept': 'Continuar',
  'waiting.text': 'Espera un momento estamos trabajando en su registro',
  'somethingHappened.title': 'Algo pasó',
  'somethingHappened.text':
    'No pudimos terminar la revisión en este momento. Seguimos trabajando en ella y te avisaremos por mensaje. Si tienes dudas, escríbenos.',
  'somethingHappened.chat': 'Hola, mi registro se quedó en revisión y quiero saber cómo va.',
  // A guarantor whose documents got no answer in time (SPEC §2.4): the credit is the shopkeeper's.
  'somethingHappened.documents': 'No pudimos validar tus documentos en este momento.',
  'somethingHappened.guarantor':
    'Ponte en contacto con la persona de la que eres aval para saber cómo sigue su crédito.',
  'somethingHappened.guarantorChat': 'Hola, soy aval de una solicitud de crédito y no pudieron validar mis documentos.',
  'congratulations.title': 'Felicidades',
  'congratulations.text': 'Tienes un crédito pre aprobado de',
  'congratulations.next': 'Para continuar, crea una contraseña con la que entrarás a la app.',
  'congratulations.cta': 'Crear contraseña',
  'password.title': 'Crea tu contraseña',
  'password.subtitle': 'Usa 6 números que recuerdes y que nadie más adivine.',
  'password.label': 'Contraseña de 6 dígitos',
  'password.confirm': 'Confirma tu contraseña',
  'password.show': 'Mostrar contraseña',
  'password.hide': 'Ocultar contraseña',
  'advisor.title': 'Tu préstamo fue pre aprobado',
  'advisor.stepper': 'Evaluación',
  'advisor.subtitle': 'Un asesor te ayudará a terminar. Elige cómo quieres seguir:',
  'advisor.call': 'Continuar por llamada',
  'advisor.with': 'Estoy con un asesor',
  'advisor.chat': 'Continuar por WhatsApp',
  'advisor.chatText': 'Mi préstamo fue pre aprobado',
  'download.title': 'Descarga la app',
  'download.text': 'Sigue tu crédito, surte tu {storeType} y paga desde la app.',
  'download.cta': 'Descargar la app',
  'welcome.call': 'Un asesor te llamará en menos de {minutes} minutos desde el número {phone}.',
  'welcome.video': 'Video de bienvenida',
  'common.back': 'Regresar',
  'common.close': 'Cerrar',
  'notFound.title': 'Página no encontrada',
  'notFound.text': 'La página que buscas no existe o ya no está disponible.',
  'fallback.title': 'No encontramos esta página',
  'fallback.text': 'Revisa el enlace o vuelve al inicio para continuar con tu registro.',
  'fallback.home': 'Ir al inicio',
  'stepper.step': 'Paso {step}/{total}',
} as const;

export type ScreenCopyKey = keyof typeof es;

/** Country overrides replace single keys. */
const overrides: Record<CountryCode, Partial<Record<ScreenCopyKey, string>>> = {
  do: {
    'address.state': 'Provincia',
    'address.neighborhoodMissing': 'Mi sector no aparece',
    // 'la cédula' (feminine) where the generic texts say 'tu {label} … correcto'.
    'taxId.title': 'Confirma que tu cédula sea correcta',
    'taxId.subtitle': 'La usamos para revisar tu historial de crédito. Revísala con calma.',
    'taxId.lookup': '¿No conoces tu cédula? Consúltala aquí',
    'taxId.confirm': 'Mi cédula es correcta',
    'outOfService.text':
      'Por ahora solo damos servicio en algunos municipios de Santo Domingo y Santiago. Te avisaremos cuando lleguemos a tu zona.',
  },
  mx: {
    'address.searchSubtitle': 'Escribe la colonia o la calle de tu negocio y elige tu dirección de la lista.',
    'outOfService.text':
      'Por ahora solo damos servicio en algunos municipios del Estado de México. Te avisaremos cuando lleguemos a tu zona.',
  },
};

export const screenCopy = { es, overrides };
