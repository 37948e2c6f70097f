/**
 * What every answer to a fuzzed request must be: below 500, and, when it refuses, the one error
 * envelope `{ code, message, readable_message }` whose readable_message (and every field message
 * of `issues`) is Spanish a person can read.
 */

/** Words of English error text (Fastify's, Node's, zod's English locale, a developer's). */
const ENGLISH =
  /\b(the|is|are|was|must|should|cannot|can't|not found|invalid|expected|required|received|request|body|failed|unexpected|unsupported|too (large|long|many|big)|please|string|number|object|array|undefined|null|property|field|route|method|payload|json)\b/i;
/** Words nearly every Spanish sentence of the catalogue holds at least one of. */
const SPANISH =
  /\b(de|del|al|la|las|el|los|lo|un|una|que|no|tu|tus|su|sus|te|se|ya|es|en|con|por|para|esta|este|esa|ese|otra|otro|intenta|revisa|usa|escribe|pide|espera|vuelve|selecciona|elige|ingresa|solicitud|permiso|datos|firma|formulario|foto|fotos|estado|nombre|fecha|correo|cuenta|celular|negocio|aval|enlace|intentos)\b/i;
const SPANISH_LETTERS = /[áéíóúñü¿¡]/i;

/**
 * The text is Spanish: Spanish words, no English ones (quoted values and patterns, which a field
 * message may repeat, are not read). A readable_message is also a sentence: a capital (or ¿ ¡ *)
 * first, and . ? ! … at the end.
 */
export function spanishProblem(text: unknown, { sentence = true } = {}): string | null {
  if (typeof text !== 'string') return 'not a string';
  const trimmed = text.trim();
  if (trimmed.length < 4) return 'empty or too short';
  if (sentence && !/^[¿¡*"'(A-ZÁÉÍÓÚÑ0-9]/.test(trimmed)) return 'does not start like a sentence';
  if (sentence && !/[.?!…)]$/.test(trimmed)) return 'does not end like a sentence';
  const words = trimmed.replace(/"[^"]*"/g, ' ').replace(/\/\^.*\$\//g, ' ');
  if (ENGLISH.test(words)) return `English word ${JSON.stringify(ENGLISH.exec(words)![0])}`;
  if (!SPANISH.test(words) && !SPANISH_LETTERS.test(words)) return 'no Spanish word';
  return null;
}

export interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

export type Finding = '5xx' | 'no envelope' | 'not Spanish';

/** The problems of one answer (empty when it is what it must be). */
export function answerProblems(answer: Answer): { finding: Finding; detail: string }[] {
  if (answer.statusCode >= 500) return [{ finding: '5xx', detail: answer.body.slice(0, 300) }];
  if (answer.statusCode < 400) return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [{ finding: 'no envelope', detail: `not JSON: ${answer.body.slice(0, 200)}` }];
  }
  const envelope = body as Record<string, unknown> | null;
  if (
    !envelope ||
    typeof envelope !== 'object' ||
    typeof envelope.code !== 'string' ||
    typeof envelope.message !== 'string' ||
    typeof envelope.readable_message !== 'string'
  )
    return [{ finding: 'no envelope', detail: answer.body.slice(0, 300) }];
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json'))
    return [{ finding: 'no envelope', detail: `content-type ${String(answer.headers['content-type'])}` }];
  const problems: { finding: Finding; detail: string }[] = [];
  const readable = spanishProblem(envelope.readable_message);
  if (readable)
    problems.push({ finding: 'not Spanish', detail: `${readable}: ${JSON.stringify(envelope.readable_message)}` });
  if (envelope.issues !== undefined) {
    if (!Array.isArray(envelope.issues)) problems.push({ finding: 'no envelope', detail: 'issues is not a list' });
    else
      for (const issue of envelope.issues as { field?: unknown; message?: unknown }[]) {
        // Field messages are zod's Spanish locale or the screens' own: Spanish, not always a sentence.
        const problem =
          typeof issue.field === 'string'
            ? spanishProblem(issue.message, { sentence: false })
            : 'issue without a field';
        if (problem)
          problems.push({
            finding: 'not Spanish',
            detail: `issue ${String(issue.field)}: ${problem}: ${JSON.stringify(issue.message)}`,
          });
      }
  }
  return problems;
}
