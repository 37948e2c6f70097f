import { SIMULATED_SEAL_PROVIDER, type ApplicationDetail, type ContractCheck, type ContractSeal } from '@provee/domain';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { actions, BackofficeError } from '../../api.js';
import { formatDateTime } from '../../lib/format.js';
import { Facts } from './section.js';

const TIMESTAMP_STATUS = { waiting: 'En espera de la autoridad', stamped: 'Agregado' } as const;
const NOM151_STATUS = { not_required: 'No aplica (solo México)', waiting: 'En espera', issued: 'Emitida' } as const;

/** Who dated or kept it; the simulators (outside production) said to have no legal value. */
const provider = (name: string | null) =>
  name === SIMULATED_SEAL_PROVIDER ? `${name} (de prueba, sin validez legal)` : (name ?? '');

/** The lender's seal on the signed contract: who sealed it, its time-stamp and its NOM-151 certificate (issue 36). */
export function ContractSealFacts({ seal, signedSha256 }: { seal: ContractSeal; signedSha256: string | null }) {
  const { timestamp, nom151 } = seal;
  return (
    <Facts
      items={[
        // The file's hash as sealed, before its time-stamp went in (the copies sent before then).
        ...(seal.sealed_sha256 !== signedSha256
          ? [
              ['Huella al sellar (SHA-256)', <code className="bo-hash">{seal.sealed_sha256}</code>] as [
                string,
                ReactNode,
              ],
            ]
          : []),
        [
          'Sello del otorgante',
          <>
            {seal.certificate_name} · {formatDateTime(seal.sealed_at)}
            {seal.development && <strong> · de prueba</strong>}
          </>,
        ],
        [
          'Sello de tiempo (RFC 3161)',
          timestamp.status === 'stamped' && timestamp.time
            ? `${TIMESTAMP_STATUS.stamped}: ${formatDateTime(timestamp.time)} · ${provider(timestamp.authority)}`
            : `${TIMESTAMP_STATUS.waiting}${timestamp.attempts > 0 ? ` (${timestamp.attempts} intentos)` : ''}`,
        ],
        [
          'Constancia NOM-151',
          nom151.status === 'issued' && nom151.issued_at
            ? `${NOM151_STATUS.issued}: ${formatDateTime(nom151.issued_at)} · ${provider(nom151.provider)} · folio ${nom151.reference ?? ''}`
            : NOM151_STATUS[nom151.status],
        ],
      ]}
    />
  );
}

type Checked = { file: string; answer: ContractCheck } | { file: string; error: string };

/** "¿Es este documento el que firmamos?": an analyst chooses a PDF someone sent; the server compares it. */
export function ContractCheckForm({ detail }: { detail: ApplicationDetail }) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState<Checked | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      setChecked({ file: file.name, answer: await actions.checkContract(detail.id, file) });
    } catch (error) {
      setChecked({
        file: file.name,
        error: error instanceof BackofficeError ? error.readableMessage : 'No pudimos revisar el archivo.',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="bo-subsection" onSubmit={submit} aria-busy={busy}>
      <h3>¿Es este documento el que firmamos?</h3>
      <p className="bo-muted">Elige el PDF que te enviaron: lo comparamos con el contrato sellado.</p>
      <label htmlFor={inputId}>Contrato en PDF</label>
      <input
        id={inputId}
        type="file"
        accept="application/pdf,.pdf"
        onChange={(event) => {
          setFile(event.target.files?.[0] ?? null);
          setChecked(null);
        }}
      />
      <div className="bo-actions">
        <button type="submit" className="bo-button" disabled={!file || busy}>
          {busy ? 'Revisando…' : 'Revisar documento'}
        </button>
      </div>
      {checked && (
        <p role="status" className={'answer' in checked && checked.answer.matches ? 'bo-ok' : 'bo-error'}>
          <strong>{checked.file}:</strong> {'answer' in checked ? checked.answer.readable_message : checked.error}
        </p>
      )}
    </form>
  );
}
