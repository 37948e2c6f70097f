import { useId, useState } from 'react';
import { Dialog } from '../dialog.js';

export interface ShownSecret {
  title: string;
  /** What it is for and whom to hand it to. */
  intro: string;
  /** The field's label ('Secreto de firma', 'Llave'). */
  label: string;
  secret: string;
}

/**
 * A signing secret or an API key, shown the one time the API answers it: the admin copies it
 * now or makes a new one later.
 */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret; onClose: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState('');
  const copy = () =>
    navigator.clipboard?.writeText(shown.secret).then(
      () => setCopied('Copiado.'),
      () => setCopied('No pudimos copiarlo: selecciónalo y cópialo a mano.'),
    ) ?? setCopied('No pudimos copiarlo: selecciónalo y cópialo a mano.');
  return (
    <Dialog title={shown.title} onClose={onClose}>
      <p>{shown.intro}</p>
      <p>
        <strong>Cópialo ahora: no se volverá a mostrar.</strong> Si se pierde, tendrás que generar otro.
      </p>
      <label htmlFor={id}>{shown.label}</label>
      <input id={id} className="bo-key-field" readOnly value={shown.secret} onFocus={(e) => e.currentTarget.select()} />
      <div className="bo-actions bo-dialog__actions">
        <button type="button" className="bo-button" onClick={() => void copy()}>
          Copiar
        </button>
        <button type="button" className="bo-button bo-button--quiet" onClick={onClose}>
          Ya lo guardé
        </button>
        <span role="status">{copied}</span>
      </div>
    </Dialog>
  );
}
