import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { BureauError, BureauIntegrityError, BureauRefusedError } from '../bureau-error.js';
import type { PersonaPeticion } from './persona.js';
import { normaliseReport, parseRespuesta, reportIsAbout, type NormalisedReport } from './report.js';
import { SIGNATURE_HEADER, signBody, verifyBody } from './signature.js';

export interface CirculoClientOptions {
  /** Production `https://services.circulodecredito.com.mx`, or the same host under `/sandbox`. */
  baseUrl: string;
  apiKey: string;
  username: string;
  password: string;
  /** The lender's secp384r1 key: every request body is signed with it. */
  privateKey: KeyObject;
  /** Círculo's key (from its certificate): every answer is verified with it before it is read. */
  circuloKey: KeyObject;
  /** The report's path, `/v2/rccficoscore` by default. */
  productPath: string;
  clock: () => Date;
}

/** A report (with the answer's bytes, kept encrypted as evidence), or no record of the person: a thin file. */
export type ReportAnswer = { kind: 'report'; report: NormalisedReport; raw: Buffer } | { kind: 'no-record' };

/** The NIP audit (`auth-nip`): the evidence of the person's consent for the query with this folio. */
export interface SustitucionNipPeticion {
  folioCDC: number;
  fechaConsulta: string;
  horaConsulta: string;
  tipoConsulta: 'PF';
  usuario: string;
  fechaAprobacionConsulta: string;
  horaAprobacionConsulta: string;
  ingresoNuevamenteNIP: boolean;
  respuestaLeyendaAutorizacion: boolean;
  aceptaTerminosCondiciones: boolean;
  numeroFirma: string;
  persona: {
    primerNombre: string;
    segundoNombre?: string;
    apellidoPaterno: string;
    apellidoMaterno: string;
    RFC?: string;
    domicilio: { calleNumero: string; colonia?: string; ciudad?: string; estado: string };
  };
}

export const AUDIT_PATH = '/v1/auth-nip/';
const errores = z.object({ errores: z.array(z.object({ codigo: z.string(), mensaje: z.string() })) });
const auditAnswer = z.object({ folioCDC: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(Number) });

/** Círculo's API as its public clients call it: serialise once, sign those bytes, send them; verify before reading. */
export function createCirculoClient(options: CirculoClientOptions) {
  async function call(path: string, body: unknown, signal: AbortSignal) {
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    let response: Response;
    let raw: Buffer;
    try {
      response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-key': options.apiKey,
          username: options.username,
          password: options.password,
          [SIGNATURE_HEADER]: signBody(bytes, options.privateKey),
        },
        body: bytes,
        // Never follow a redirect: it would carry the credentials to another address.
        redirect: 'error',
        signal,
      });
      raw = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw new BureauError(`Círculo no respondió: ${error instanceof Error ? error.message : String(error)}`);
    }
    const signed = verifyBody(raw, response.headers.get(SIGNATURE_HEADER), options.circuloKey);
    return { status: response.status, raw, signed };
  }

  /**
   * An answer that is not a success: refused for good (a 4xx: the request as sent will not do) or
   * retried (408, 425, 429, 5xx and anything else: the next try may answer).
   */
  function failure(path: string, answer: { status: number; raw: Buffer; signed: boolean }): Error {
    const { status } = answer;
    if (status >= 400 && status < 500 && ![408, 425, 429].includes(status)) {
      const codes = answer.signed ? (errores.safeParse(json(answer.raw))?.data?.errores ?? []) : [];
      return new BureauRefusedError(`Círculo rechazó ${path} (HTTP ${status})`, status, codes);
    }
    return new BureauError(`Círculo respondió HTTP ${status} a ${path}`);
  }

  return {
    async report(persona: PersonaPeticion, signal: AbortSignal): Promise<ReportAnswer> {
      const answer = await call(options.productPath, persona, signal);
      if (answer.status !== 200 && answer.status !== 204) throw failure(options.productPath, answer);
      if (!answer.signed)
        throw new BureauIntegrityError(`la firma de la respuesta de Círculo (HTTP ${answer.status}) no es válida`);
      if (answer.status === 204) return { kind: 'no-record' };
      const parsed = parseRespuesta(json(answer.raw));
      if (!parsed) throw new BureauRefusedError('la respuesta de Círculo no tiene la forma de un reporte', 200);
      // Signed, but about someone else (a replayed answer, or a mix-up): never this person's decision.
      if (!reportIsAbout(parsed, persona))
        throw new BureauIntegrityError(
          `el reporte firmado (folio ${parsed.folioConsulta}) no es de la persona consultada`,
        );
      return { kind: 'report', report: normaliseReport(parsed, options.clock()), raw: answer.raw };
    },

    /** The consent's evidence for a folio; Círculo's acknowledgement folio. */
    async auditNip(request: SustitucionNipPeticion, signal: AbortSignal): Promise<number> {
      const answer = await call(AUDIT_PATH, request, signal);
      if (answer.status !== 200) throw failure(AUDIT_PATH, answer);
      if (!answer.signed)
        throw new BureauIntegrityError('la firma de la respuesta de la auditoría de NIP no es válida');
      const parsed = auditAnswer.safeParse(json(answer.raw));
      if (!parsed.success) throw new BureauRefusedError('la respuesta de la auditoría de NIP no tiene folioCDC', 200);
      return parsed.data.folioCDC;
    },
  };
}

export type CirculoClient = ReturnType<typeof createCirculoClient>;

function json(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
