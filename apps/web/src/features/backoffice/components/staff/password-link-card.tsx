import { STAFF_PASSWORD_LINK_MINUTES, type PasswordLinkView } from '@provee/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { formatDateTime } from '../../lib/format.js';

const validFor =
  STAFF_PASSWORD_LINK_MINUTES % 60 === 0
    ? `${STAFF_PASSWORD_LINK_MINUTES / 60} ${STAFF_PASSWORD_LINK_MINUTES === 60 ? 'hora' : 'horas'}`
    : `${STAFF_PASSWORD_LINK_MINUTES} minutos`;

/**
 * The single-use link a person sets their password with (a new account, or a forgotten password):
 * the admin copies it and hands it over. It is shown here once; a new one replaces it.
 */
export function PasswordLinkCard({
  name,
  link,
  onClose,
}: {
  name: string;
  link: PasswordLinkView;
  onClose: () => void;
}) {
  const id = useId();
  const [copied, setCopied] = useState('');
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [link]);
  const copy = () =>
    navigator.clipboard?.writeText(link.url).then(
      () => setCopied('Enlace copiado.'),
      () => setCopied('No pudimos copiarlo: selecciónalo y cópialo a mano.'),
    );
  return (
    <section ref={ref} tabIndex={-1} className="bo-card bo-link-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Enlace de contraseña para {name}</h2>
      <p>Entrega este enlace a la persona por un canal seguro: sirve una vez y vence en {validFor}.</p>
      <div className="bo-form--row">
        <label className="bo-grow">
          Enlace para crear la contraseña
          <input readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
        </label>
        <button type="button" className="bo-button" onClick={() => void copy()}>
          Copiar enlace
        </button>
        <button type="button" className="bo-button bo-button--quiet" onClick={onClose}>
          Listo
        </button>
      </div>
      <p className="bo-muted">
        Vence el {formatDateTime(link.expires_at)} <span role="status">{copied}</span>
      </p>
    </section>
  );
}
