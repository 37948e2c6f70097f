import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getCountry } from '@provee/domain';
import type { Config } from '../../../config.js';
import { BureauRefusedError } from '../bureau-error.js';
import type { BureauProvider, BureauReport, BureauSubject, ConsentEvidence } from '../types.js';
import { createCirculoClient, type SustitucionNipPeticion } from './client.js';
import { personaPeticion, type PersonaPeticion } from './persona.js';
import { auditState, circuloState } from './states.js';

/**
 * Círculo de Crédito (Mexico) as the product's bureau: the RCC + FICO Score report for the
 * decision, then the NIP audit with the consent's evidence (decision 028).
 */
export function createCirculoBureau(config: Config): BureauProvider {
  const client = createCirculoClient({
    baseUrl: config.CIRCULO_BASE_URL!,
    apiKey: config.CIRCULO_API_KEY!,
    username: config.CIRCULO_USERNAME!,
    password: config.CIRCULO_PASSWORD!,
    privateKey: createPrivateKey(readFileSync(config.CIRCULO_PRIVATE_KEY_FILE!, 'utf8')),
    circuloKey: createPublicKey(readFileSync(config.CIRCULO_CERTIFICATE_FILE!, 'utf8')),
    productPath: config.CIRCULO_PRODUCT_PATH,
    clock: () => new Date(),
  });
  const timeZone = getCountry('mx').timeZone;

  function persona(subject: BureauSubject): PersonaPeticion {
    const { address } = subject;
    const state = address && circuloState(address.stateCode);
    if (!address || !state)
      throw new BureauRefusedError('la dirección no tiene un estado que Círculo conozca', 0, [
        { codigo: 'domicilio', mensaje: 'Falta la dirección o su estado.' },
      ]);
    return personaPeticion(
      {
        givenNames: subject.name,
        paternalSurname: subject.lastname,
        maternalSurname: subject.maternalLastname,
        birthDate: subject.dob,
        rfc: subject.taxId,
        address: { ...address, state },
      },
      { missingSurname: config.CIRCULO_MISSING_SURNAME },
    );
  }

  return {
    name: 'circulo',
    needsPerson: true,

    async query(subject, signal): Promise<BureauReport> {
      const answer = await client.report(persona(subject), signal);
      if (answer.kind === 'no-record')
        return {
          folio: null,
          score: null,
          open_accounts: 0,
          delinquencies: 0,
          worst_past_due_delay_days: 0,
          recent_inquiries: 0,
          details: { no_record: true },
        };
      const { report } = answer;
      return {
        folio: report.folio,
        score: report.score,
        open_accounts: report.openAccounts,
        delinquencies: report.accountsPastDue,
        worst_past_due_delay_days: report.worstPastDueDelayDays,
        recent_inquiries: report.inquiries.last12Months,
        details: {
          scores: report.scores,
          score_reasons: report.scoreReasons,
          worst_delay_days: report.worstDelayDays,
          inquiries_3_months: report.inquiries.last3Months,
          inquiries_6_months: report.inquiries.last6Months,
          inquiries_12_months: report.inquiries.last12Months,
          prevention_keys: report.preventionKeys,
          messages: report.messages,
        },
        raw: answer.raw,
      };
    },

    async auditConsent(evidence: ConsentEvidence, signal): Promise<string> {
      const asked = persona(evidence.subject);
      const queried = dateAndTime(evidence.queriedAt, timeZone);
      const approved = dateAndTime(evidence.approvedAt, timeZone);
      const request: SustitucionNipPeticion = {
        folioCDC: Number(evidence.reportFolio),
        fechaConsulta: queried.date,
        horaConsulta: queried.time,
        tipoConsulta: 'PF',
        usuario: config.CIRCULO_USERNAME!,
        fechaAprobacionConsulta: approved.date,
        horaAprobacionConsulta: approved.time,
        ingresoNuevamenteNIP: evidence.pinVerified,
        respuestaLeyendaAutorizacion: true,
        aceptaTerminosCondiciones: true,
        numeroFirma: evidence.pin,
        persona: {
          primerNombre: asked.primerNombre,
          ...(asked.segundoNombre ? { segundoNombre: asked.segundoNombre } : {}),
          apellidoPaterno: asked.apellidoPaterno,
          apellidoMaterno: asked.apellidoMaterno,
          ...(asked.RFC ? { RFC: asked.RFC } : {}),
          domicilio: {
            calleNumero: asked.domicilio.direccion,
            ...(asked.domicilio.coloniaPoblacion ? { colonia: asked.domicilio.coloniaPoblacion } : {}),
            ciudad: asked.domicilio.ciudad,
            estado: auditState(asked.domicilio.estado),
          },
        },
      };
      return String(await client.auditNip(request, signal));
    },
  };
}

/**
 * The NIP audit's date and time, in Mexico City's time: 'yyyy/MM/dd' and 'HH/mm/ss', as
 * Círculo's audit clients send them (audit-firma-client-java ApiTest: "2021/04/15", "10/12/35").
 */
export function dateAndTime(at: Date, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}/${parts.month}/${parts.day}`, time: `${parts.hour}/${parts.minute}/${parts.second}` };
}
