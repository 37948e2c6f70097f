import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { signBody, verifyBody } from '../../../src/providers/bureau/circulo/signature.js';
import { behaviourOf, reportFor, type Behaviour, type FiledPerson } from './persons.js';
import { CIRCULO_STATES, postcodeInState } from './postcodes.js';

/**
 * A local stand-in for Círculo de Crédito's RCC + FICO Score and NIP-audit APIs, written from its
 * public clients (APIHub-CdC): the same paths (with or without `/sandbox`), the headers
 * `x-api-key`, `username`, `password` and `x-signature` (ECDSA P-384 / SHA-256 over the raw body,
 * hex DER), `PersonaPeticion` checked field by field, every answer signed with its own key, and the
 * errors as `{ errores: [{ codigo, mensaje }] }`. What each test person answers: persons.ts.
 */
export interface StandInOptions {
  /** The lender's public key: a request whose signature does not verify under it is refused. */
  lenderKey: KeyObject;
  /** The stand-in's own key, standing for Círculo's: it signs every answer. */
  ownKey: KeyObject;
  /** A second key, to sign the answers of the 'bad-signature' person. */
  wrongKey: KeyObject;
  credentials: { apiKey: string; username: string; password: string };
  clock?: () => Date;
}

export interface QueryRecord {
  folio: string;
  body: Record<string, unknown>;
  at: Date;
}

type Answer = { status: number; body?: unknown; key?: KeyObject };
const errors = (status: number, ...list: [codigo: string, mensaje: string][]): Answer => ({
  status,
  body: { errores: list.map(([codigo, mensaje]) => ({ codigo, mensaje })) },
});
const required = (field: string) => `El campo "${field}" es requerido.`;
const invalid = (field: string) => `El campo "${field}" no es válido.`;

export async function startCirculoStandIn(options: StandInOptions, port = 0) {
  const clock = options.clock ?? (() => new Date());
  const queries = new Map<string, QueryRecord>();
  const audits: Record<string, unknown>[] = [];
  const seen = new Map<Behaviour, number>();
  let nextFolio = 19698610;

  function checkCaller(request: IncomingMessage, raw: Buffer): Answer | null {
    const { apiKey, username, password } = options.credentials;
    if (request.headers['x-api-key'] !== apiKey)
      return errors(401, ['401.1', 'Acceso no autorizado, x-api-key no válida.']);
    if (request.headers.username !== username || request.headers.password !== password)
      return errors(401, ['401.2', 'Acceso no autorizado.']);
    if (!verifyBody(raw, request.headers['x-signature'], options.lenderKey))
      return errors(403, ['403.1', 'No se pudo verificar la firma de la petición.']);
    return null;
  }

  function report(body: Record<string, unknown>): Answer {
    const problems = personaProblems(body);
    if (problems.length > 0) return errors(400, ...problems.map((message): [string, string] => ['400.1', message]));
    const behaviour = behaviourOf(typeof body.RFC === 'string' ? body.RFC : undefined);
    const times = (seen.get(behaviour) ?? 0) + 1;
    seen.set(behaviour, times);
    switch (behaviour) {
      case 'thin-file':
        return { status: 204 };
      case 'blocked':
        return errors(403, ['403.2', 'El expediente de la persona está bloqueado.']);
      case 'unauthorised':
        return errors(401, ['401.4', 'Acceso no autorizado, no tiene el producto asociado.']);
      case 'busy-once':
        if (times === 1) return errors(429, ['429.1', 'Demasiadas peticiones, inténtelo más tarde.']);
        break;
      case 'down-once':
        if (times === 1) return errors(503, ['503.1', 'Servicio no disponible, inténtelo más tarde.']);
        break;
    }
    const folio = String(nextFolio++);
    queries.set(folio, { folio, body, at: clock() });
    const about = behaviour === 'someone-else' ? SOMEONE_ELSE : (body as unknown as FiledPerson);
    const answer = reportFor(
      ['bad-signature', 'someone-else'].includes(behaviour) ? 'good' : behaviour,
      folio,
      clock(),
      about,
    );
    return { status: 200, body: answer, ...(behaviour === 'bad-signature' ? { key: options.wrongKey } : {}) };
  }

  function audit(body: Record<string, unknown>): Answer {
    const problems = auditProblems(body);
    if (problems.length > 0) return errors(400, ...problems.map((message): [string, string] => ['400.1', message]));
    const folio = String(body.folioCDC);
    const query = queries.get(folio);
    if (!query) return errors(404, ['404.1', 'No se encontró el folio']);
    if (audits.some((done) => String(done.folioCDC) === folio))
      return errors(400, ['400.6', 'El folio consulta ya existe.']);
    const approved = `${String(body.fechaAprobacionConsulta)} ${String(body.horaAprobacionConsulta)}`;
    const consulted = `${String(body.fechaConsulta)} ${String(body.horaConsulta)}`;
    if (approved > consulted)
      return errors(400, ['400.7', 'La fecha aprobación no puede ser mayor a la fecha de la consulta.']);
    const persona = body.persona as Record<string, unknown>;
    for (const field of ['apellidoPaterno', 'primerNombre', 'RFC'] as const)
      if (persona[field] !== undefined && persona[field] !== query.body[field])
        return errors(400, [
          '400.8',
          `El campo "${field}" de la petición no coincide con los datos que están registados en Circulo de Crédito.`,
        ]);
    audits.push(body);
    return { status: 200, body: { folioCDC: Number(folio) } };
  }

  function route(request: IncomingMessage, raw: Buffer): Answer {
    const path = (request.url ?? '').split('?')[0]!.replace(/^\/sandbox/, '');
    const known = ['/v2/rccficoscore', '/v1/auth-nip', '/v1/auth-nip/', '/v1/securitytest'];
    if (request.method !== 'POST' || !known.includes(path)) return errors(404, ['404', 'Recurso no encontrado.']);
    const refused = checkCaller(request, raw);
    if (refused) return refused;
    if (path === '/v1/securitytest') return { status: 200, body: raw.toString('utf8') };
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return errors(400, ['400', 'La petición no es un JSON válido.']);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return errors(400, ['400', 'La petición no es un objeto.']);
    return path === '/v2/rccficoscore'
      ? report(body as Record<string, unknown>)
      : audit(body as Record<string, unknown>);
  }

  function send(response: ServerResponse, answer: Answer) {
    const bytes =
      answer.body === undefined
        ? Buffer.alloc(0)
        : Buffer.from(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body), 'utf8');
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'x-signature': signBody(bytes, answer.key ?? options.ownKey),
    });
    response.end(bytes);
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => send(response, route(request, Buffer.concat(chunks))));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    /** Every report the stand-in answered with a folio, by folio. */
    queries,
    /** Every NIP audit it accepted. */
    audits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type CirculoStandIn = Awaited<ReturnType<typeof startCirculoStandIn>>;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Círculo's own sandbox person, whose report the 'someone-else' person gets instead of their own. */
const SOMEONE_ELSE: FiledPerson = {
  apellidoPaterno: 'SESENTAYDOS',
  apellidoMaterno: 'PRUEBA',
  primerNombre: 'JUAN',
  fechaNacimiento: '1965-08-09',
  RFC: 'SEPJ650809JG1',
};

/** What is wrong with a `PersonaPeticion`, in Círculo's words (empty: nothing). */
function personaProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const lengths: [string, number][] = [
    ['apellidoPaterno', 30],
    ['apellidoMaterno', 30],
    ['primerNombre', 50],
  ];
  for (const [field, max] of lengths) {
    if (!text(body[field])) problems.push(required(field));
    else if (text(body[field]).length > max) problems.push(invalid(field));
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text(body.fechaNacimiento))) problems.push(invalid('fechaNacimiento'));
  if (body.RFC !== undefined && !/^[A-ZÑ&]{4}\d{6}([A-Z0-9]{3})?$/.test(text(body.RFC))) problems.push(invalid('RFC'));
  const address = body.domicilio as Record<string, unknown> | undefined;
  if (typeof address !== 'object' || address === null) return [...problems, required('domicilio')];
  if (text(address.direccion).split(' ').filter(Boolean).length < 2) problems.push(invalid('direccion'));
  for (const field of ['delegacionMunicipio', 'ciudad']) if (!text(address[field])) problems.push(required(field));
  const state = text(address.estado);
  if (!CIRCULO_STATES.includes(state)) problems.push(invalid('estado'));
  else if (!postcodeInState(text(address.CP), state)) problems.push(invalid('CP'));
  return problems;
}

/** What is wrong with a `SustitucionNIPPeticion` (audit-firma-client-php `lib/Model`). */
function auditProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(body.folioCDC)) problems.push(invalid('folioCDC'));
  for (const field of ['fechaConsulta', 'fechaAprobacionConsulta'])
    if (!/^\d{4}\/\d{2}\/\d{2}$/.test(text(body[field]))) problems.push(invalid(field));
  for (const field of ['horaConsulta', 'horaAprobacionConsulta'])
    if (!/^\d{2}\/\d{2}\/\d{2}$/.test(text(body[field]))) problems.push(invalid(field));
  if (body.tipoConsulta !== 'PF' && body.tipoConsulta !== 'PM') problems.push(invalid('tipoConsulta'));
  const usuario = text(body.usuario);
  if (usuario.length < 10 || usuario.length > 13) problems.push(invalid('usuario'));
  for (const field of ['ingresoNuevamenteNIP', 'respuestaLeyendaAutorizacion', 'aceptaTerminosCondiciones'])
    if (typeof body[field] !== 'boolean') problems.push(invalid(field));
  const firma = text(body.numeroFirma);
  if (firma.length < 2 || firma.length > 30) problems.push(invalid('numeroFirma'));
  const persona = body.persona as Record<string, unknown> | undefined;
  if (typeof persona !== 'object' || persona === null) return [...problems, required('persona')];
  for (const field of ['primerNombre', 'apellidoPaterno', 'apellidoMaterno'])
    if (text(persona[field]).length < 2 || text(persona[field]).length > 30) problems.push(invalid(field));
  if (
    persona.segundoNombre !== undefined &&
    (text(persona.segundoNombre).length < 2 || text(persona.segundoNombre).length > 30)
  )
    problems.push(invalid('segundoNombre'));
  const address = persona.domicilio as Record<string, unknown> | undefined;
  if (typeof address !== 'object' || address === null || !text(address.calleNumero) || !text(address.estado))
    problems.push(required('domicilio'));
  else if (text(address.calleNumero).length > 80) problems.push(invalid('calleNumero'));
  return problems;
}
