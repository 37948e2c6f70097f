import { STAFF_PASSWORD_MAX_LENGTH, STAFF_PASSWORD_MIN_LENGTH } from '@provee/domain';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { dictionary as spanish } from '@zxcvbn-ts/language-es-es';

/**
 * Staff passwords per NIST SP 800-63B §5.1.1.2: at least 12 characters, no composition rules, and
 * refused when they are on a list of common and breached passwords or are easily guessed (repeats,
 * sequences, keyboard walks, dictionary words, the person's own name or e-mail). The list and the
 * estimator are zxcvbn-ts's (its `passwords-common` list holds ~49,000 passwords from breach corpora),
 * with its Spanish dictionaries (words, names, surnames: staff here write in Spanish).
 */
const common = new Set(dictionary['passwords-common']);
let estimator: ZxcvbnFactory | undefined;

/** zxcvbn's score: 3 is "safely unguessable: moderate protection from offline slow-hash scenario". */
const MIN_SCORE = 3;
/** What the estimator reads: its time grows with the length, and a strong start is strong enough. */
const ESTIMATED_PREFIX = 40;

export const PASSWORD_TOO_COMMON =
  'Esa contraseña es muy común o fácil de adivinar. Usa una frase de varias palabras que no tenga que ver con tu nombre ni con tu correo.';

export function staffPasswordProblem(password: string, person: { email?: string; name?: string } = {}): string | null {
  if ([...password].length < STAFF_PASSWORD_MIN_LENGTH)
    return `La contraseña debe tener al menos ${STAFF_PASSWORD_MIN_LENGTH} caracteres.`;
  if (password.length > STAFF_PASSWORD_MAX_LENGTH) return 'La contraseña es demasiado larga.';
  const normalised = password.normalize('NFKC');
  if (common.has(normalised.toLowerCase())) return PASSWORD_TOO_COMMON;
  estimator ??= new ZxcvbnFactory({ dictionary: { ...dictionary, ...spanish }, graphs: adjacencyGraphs });
  const words = [
    person.email?.split('@')[0],
    person.email?.split('@')[1]?.split('.')[0],
    ...(person.name ?? '').split(/\s+/),
  ]
    .filter((word): word is string => !!word && word.length >= 3)
    .map((word) => word.toLowerCase());
  const { score } = estimator.check(normalised.slice(0, ESTIMATED_PREFIX), ['provee', 'prestamista', ...words]);
  return score < MIN_SCORE ? PASSWORD_TOO_COMMON : null;
}
