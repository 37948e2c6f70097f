import { createHash } from 'node:crypto';

/** The authorisation the shopkeeper accepts with the PIN (SPEC §2.3 item 6). Change it only with a new version. */
export const CONSENT_VERSION = '2026-11-01';
export const CONSENT_YEARS = 3;

export type ConsentPerson = 'titular' | 'collateral';

/** The text of the authorisation: the shopkeeper's own (titular) or a guarantor's (collateral). */
export function consentText(lenderName: string, person: ConsentPerson = 'titular'): string {
  if (person === 'collateral') {
    return (
      `Por este medio autorizo expresamente a ${lenderName} para que consulte mi historial crediticio en las ` +
      'sociedades de información crediticia que estime conveniente, como aval de la solicitud de crédito de quien me ' +
      'eligió. Declaro que conozco la naturaleza y el alcance de la información que se solicitará, el uso que se le dará ' +
      'y que se podrán hacer consultas periódicas de mi historial. ' +
      `Esta autorización estará vigente por ${CONSENT_YEARS} años a partir de hoy y, en su caso, mientras mantengamos una ` +
      'relación jurídica. Acepto que escribir mi NIP de consulta, o enviar el mensaje de validación desde mi celular, ' +
      'equivale a mi firma.'
    );
  }
  return (
    `Por este medio autorizo expresamente a ${lenderName} para que consulte mi historial crediticio y el de mi negocio ` +
    'en las sociedades de información crediticia que estime conveniente. Declaro que conozco la naturaleza y el alcance ' +
    'de la información que se solicitará, el uso que se le dará y que se podrán hacer consultas periódicas de mi historial. ' +
    `Esta autorización estará vigente por ${CONSENT_YEARS} años a partir de hoy y, en su caso, mientras mantengamos una ` +
    'relación jurídica. Acepto que escribir mi NIP de consulta equivale a mi firma.'
  );
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
