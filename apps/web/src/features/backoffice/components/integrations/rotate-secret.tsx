import { useState, type FormEvent } from 'react';
import { useSubmit } from '../../lib/use-submit.js';
import { Dialog } from '../dialog.js';
import { ErrorMessage } from '../messages.js';
import { SecretDialog } from './secret-dialog.js';

const DEFAULT_OVERLAP_HOURS = 24;

/**
 * A new signing secret for an endpoint (after a confirmation); the previous one keeps signing
 * beside it for the hours chosen, so the receiving system changes over at its own pace.
 */
export function RotateSecret({ url, run }: { url: string; run: (overlapHours: number) => Promise<string> }) {
  // Asked, then the new secret in a dialog of its own (keyed apart: each takes the focus as it opens).
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [hours, setHours] = useState(String(DEFAULT_OVERLAP_HOURS));
  const { pending, error, submit } = useSubmit();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // The API checks the range and answers in words; an empty field is the default.
    const overlap = hours.trim() === '' ? DEFAULT_OVERLAP_HOURS : Number(hours);
    if (await submit(async () => setSecret(await run(overlap)))) setOpen(false);
  };
  return (
    <>
      <button
        type="button"
        className="bo-button bo-button--small bo-button--quiet"
        aria-label={`Cambiar secreto de ${url}`}
        onClick={() => setOpen(true)}
      >
        Cambiar secreto
      </button>
      {secret !== null && (
        <SecretDialog
          key="secret"
          shown={{
            title: 'Nuevo secreto de firma',
            intro: `El secreto nuevo de ${url}: entrégalo al equipo de sistemas del prestamista por un canal seguro.`,
            label: 'Secreto de firma',
            secret,
          }}
          onClose={() => setSecret(null)}
        />
      )}
      {open && secret === null && (
        <Dialog key="ask" title="Cambiar el secreto de firma" onClose={() => setOpen(false)}>
          <p>
            Generamos un secreto nuevo para <code className="bo-hash">{url}</code>. El anterior sigue firmando junto al
            nuevo durante las horas que indiques, para que el sistema receptor cambie sin perder envíos.
          </p>
          <form className="bo-form" onSubmit={onSubmit} noValidate>
            <label>
              Horas en que el secreto anterior sigue valiendo
              <input
                type="number"
                inputMode="numeric"
                min={0}
                max={168}
                value={hours}
                onChange={(e) => setHours(e.target.value)}
              />
            </label>
            <p className="bo-muted">De 0 a 168 (una semana); con 0 deja de valer en este momento.</p>
            <ErrorMessage error={error} />
            <div className="bo-actions">
              <button type="submit" className="bo-button" disabled={pending}>
                Cambiar secreto
              </button>
              <button type="button" className="bo-button bo-button--quiet" onClick={() => setOpen(false)}>
                Cancelar
              </button>
            </div>
          </form>
        </Dialog>
      )}
    </>
  );
}
