import {
  erasePrivacyRequestRoute,
  OPEN_PRIVACY_REQUEST_STATES,
  privacyRequestDetailRoute,
  RECTIFIABLE_FIELDS,
  rectifyPrivacyRequestRoute,
  refusePrivacyRequestRoute,
  startPrivacyRequestRoute,
  type PersonalDataExport,
  type PrivacyRequestState,
  type PrivacyRequestView,
  type RectifiableField,
  heldValueText,
} from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { backofficeRequest } from '../api.js';
import { ActionButton } from '../components/actions.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { formatDay } from '../../../shared/lib/format.js';
import { formatDateTime, STAFF_PLACE } from '../lib/format.js';
import { FIELD_NAMES, KIND_NAMES, STATE_NAMES } from '../lib/privacy-labels.js';
import { useResource } from '../lib/use-resource.js';
import { useSubmit } from '../lib/use-submit.js';

function PersonData({ person }: { person: PersonalDataExport | null }) {
  if (!person) return <p className="bo-muted">Ya no guardamos datos de esta persona.</p>;
  if (person.application.erased_at)
    return (
      <p className="bo-muted">
        Datos personales eliminados el {formatDay(person.application.erased_at.slice(0, 10), 'es', 'short')}. Solo se
        conserva la evidencia que la ley exige (consentimiento, decisiones y, si lo hay, el contrato firmado).
      </p>
    );
  return (
    <>
      {person.categories.map((category) => (
        <section key={category.category} className="bo-subsection" aria-label={category.label}>
          <h3>{category.label}</h3>
          <dl className="bo-summary">
            {category.fields.map((field) => (
              <div key={field.source}>
                <dt title={field.source}>{field.label}</dt>
                <dd>{heldValueText(field.value, STAFF_PLACE)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </>
  );
}

function RectifyForm({ request, onDone }: { request: PrivacyRequestView; onDone: () => void }) {
  const [field, setField] = useState<RectifiableField>(request.field ?? 'name');
  const [value, setValue] = useState('');
  const { pending, error, submit } = useSubmit();
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const body = { field, value };
    if (await submit(() => backofficeRequest(rectifyPrivacyRequestRoute, { params: { requestId: request.id }, body })))
      onDone();
  };
  return (
    <form className="bo-form" onSubmit={send} noValidate>
      <h3>Rectificar un dato</h3>
      <label htmlFor="bo-rectify-field">Dato</label>
      <select id="bo-rectify-field" value={field} onChange={(e) => setField(e.target.value as RectifiableField)}>
        {RECTIFIABLE_FIELDS.map((name) => (
          <option key={name} value={name}>
            {FIELD_NAMES[name]}
          </option>
        ))}
      </select>
      <label htmlFor="bo-rectify-value">Valor correcto</label>
      <input id="bo-rectify-value" value={value} maxLength={200} onChange={(e) => setValue(e.target.value)} />
      <ErrorMessage error={error} />
      <button type="submit" className="bo-button" disabled={pending}>
        Rectificar
      </button>
    </form>
  );
}

function RefuseForm({ request, onDone }: { request: PrivacyRequestView; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const { pending, error, submit } = useSubmit();
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const body = { legal_reason: reason };
    if (await submit(() => backofficeRequest(refusePrivacyRequestRoute, { params: { requestId: request.id }, body })))
      onDone();
  };
  return (
    <form className="bo-form" onSubmit={send} noValidate>
      <h3>Negar con fundamento legal</h3>
      <label htmlFor="bo-refuse-reason">Fundamento legal</label>
      <textarea
        id="bo-refuse-reason"
        rows={3}
        maxLength={1000}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <ErrorMessage error={error} />
      <button type="submit" className="bo-button" disabled={pending}>
        Negar la solicitud
      </button>
    </form>
  );
}

function Actions({ request, onDone }: { request: PrivacyRequestView; onDone: () => void }) {
  const params = { requestId: request.id };
  const erasable = request.kind === 'cancellation' || request.kind === 'opposition';
  return (
    <section className="bo-card" aria-labelledby="bo-privacy-actions">
      <h2 id="bo-privacy-actions">Responder</h2>
      <div className="bo-actions">
        {request.state === 'RECEIVED' && (
          <ActionButton
            label="Tomar la solicitud"
            run={() => backofficeRequest(startPrivacyRequestRoute, { params }).then(onDone)}
          />
        )}
        {erasable && (
          <ActionButton
            label="Eliminar los datos"
            run={async () => {
              if (!window.confirm('Se borrarán los datos personales de esta solicitud. No se puede deshacer.')) return;
              await backofficeRequest(erasePrivacyRequestRoute, { params });
              onDone();
            }}
          />
        )}
      </div>
      {request.kind === 'rectification' && <RectifyForm request={request} onDone={onDone} />}
      <RefuseForm request={request} onDone={onDone} />
    </section>
  );
}

/** /backoffice/privacy-requests/:requestId: the request, the person's data, and the answers staff may give. */
export function PrivacyRequestRoute() {
  const { requestId = '' } = useParams();
  const detail = useResource(`privacy-request:${requestId}`, () =>
    backofficeRequest(privacyRequestDetailRoute, { params: { requestId } }).then((r) => r.data),
  );
  const request = detail.data?.request;
  useTitle(request ? `Solicitud ${request.folio}` : 'Solicitud de privacidad');
  const open = request && (OPEN_PRIVACY_REQUEST_STATES as readonly PrivacyRequestState[]).includes(request.state);
  return (
    <section className="bo-detail" aria-labelledby="bo-privacy-request">
      <p>
        <Link to="/backoffice/privacy-requests">← Solicitudes de privacidad</Link>
      </p>
      <h1 id="bo-privacy-request">{request ? `Solicitud ${request.folio}` : 'Solicitud de privacidad'}</h1>
      <ErrorMessage error={detail.error} />
      {!detail.data && detail.loading && <Loading />}
      {request && (
        <>
          <section className="bo-card" aria-label="La solicitud">
            <dl className="bo-summary">
              <div>
                <dt>Derecho</dt>
                <dd>
                  {KIND_NAMES[request.kind]}
                  {request.field && ` · ${FIELD_NAMES[request.field]}`}
                </dd>
              </div>
              <div>
                <dt>Estado</dt>
                <dd>{STATE_NAMES[request.state]}</dd>
              </div>
              <div>
                <dt>Fecha límite</dt>
                <dd>
                  {formatDay(request.deadline, 'es', 'short')}
                  {request.overdue && <span className="bo-badge bo-badge--rejected">Vencida</span>}
                </dd>
              </div>
              <div>
                <dt>Recibida</dt>
                <dd>{formatDateTime(request.created_at)}</dd>
              </div>
              <div>
                <dt>Motivo</dt>
                <dd>{request.reason || '—'}</dd>
              </div>
              {request.refusal_reason && (
                <div>
                  <dt>Fundamento de la negativa</dt>
                  <dd>{request.refusal_reason}</dd>
                </div>
              )}
              <div>
                <dt>Solicitud de crédito</dt>
                <dd>
                  <Link to={`/backoffice/applications/${request.application_id}`}>Ver la solicitud</Link>
                </dd>
              </div>
            </dl>
          </section>
          {open && <Actions request={request} onDone={detail.reload} />}
          <section className="bo-card" aria-labelledby="bo-privacy-person">
            <h2 id="bo-privacy-person">Datos de la persona</h2>
            <PersonData person={detail.data!.person} />
          </section>
        </>
      )}
    </section>
  );
}
