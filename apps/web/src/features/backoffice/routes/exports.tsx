import { useState } from 'react';
import { files } from '../api.js';
import { useTitle } from '../components/messages.js';
import { StepUpLink } from '../components/step-up-link.js';
import { localDate } from '../lib/format.js';

/**
 * /backoffice/exports: CSV files of a period, downloaded by the browser with the session cookie
 * (after 'Confirma que eres tú' when the last second factor is too old).
 */
export function ExportsRoute() {
  useTitle('Exportaciones');
  const [from, setFrom] = useState(localDate(30));
  const [to, setTo] = useState(localDate(0));
  const invalid = !from || !to || from > to;
  return (
    <section aria-labelledby="bo-exports">
      <h1 id="bo-exports">Exportaciones</h1>
      <div className="bo-filters">
        <label>
          Desde
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          Hasta
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
      </div>
      {invalid ? (
        <p className="bo-error" role="alert">
          Elige un periodo válido: la fecha «Desde» no puede ser posterior a «Hasta».
        </p>
      ) : (
        <ul className="bo-downloads">
          <li>
            <StepUpLink href={files.export('applications', from, to)} download>
              Descargar solicitudes (CSV)
            </StepUpLink>
          </li>
          <li>
            <StepUpLink href={files.export('consents', from, to)} download>
              Descargar consentimientos (CSV)
            </StepUpLink>
          </li>
        </ul>
      )}
    </section>
  );
}
