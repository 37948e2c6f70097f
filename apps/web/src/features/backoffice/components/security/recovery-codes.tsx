import { useId, useState } from 'react';

interface Props {
  codes: string[];
  /** Who they belong to, written in the downloaded file. */
  email: string;
  onDone: () => void;
  /** A heading of its own (none when the screen's title already says it). */
  title?: string;
}

/**
 * The recovery codes, shown this once: to copy or download, and a checkbox that says they were
 * kept before going on (each code enters once, when the phone or the key is lost).
 */
export function RecoveryCodes({ codes, email, onDone, title }: Props) {
  const id = useId();
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState('');
  const text = `Códigos de recuperación de Provee · Back office (${email})\nCada código sirve una sola vez.\n\n${codes.join('\n')}\n`;

  const copy = () => {
    navigator.clipboard?.writeText(text).then(
      () => setCopied('Códigos copiados.'),
      () => setCopied('No pudimos copiarlos: descárgalos o escríbelos.'),
    );
  };

  return (
    <section className="bo-form bo-recovery" aria-labelledby={title ? `${id}-title` : undefined}>
      {title && <h2 id={`${id}-title`}>{title}</h2>}
      <p>
        Si pierdes tu teléfono o tu llave de acceso, cada uno de estos códigos te deja entrar <strong>una vez</strong>.
        Guárdalos ahora en un lugar seguro (un gestor de contraseñas, o impresos): no los volveremos a mostrar.
      </p>
      <ol className="bo-recovery__codes" aria-label="Códigos de recuperación">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="bo-actions">
        <button type="button" className="bo-button bo-button--quiet" onClick={copy}>
          Copiar códigos
        </button>
        <a
          className="bo-button bo-button--quiet bo-button--link"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="provee-codigos-de-recuperacion.txt"
        >
          Descargar (.txt)
        </a>
        <span className="bo-muted" role="status">
          {copied}
        </span>
      </div>
      <label className="bo-check">
        <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        Guardé mis códigos en un lugar seguro
      </label>
      <div className="bo-actions">
        <button type="button" className="bo-button" disabled={!saved} onClick={onDone}>
          Continuar
        </button>
      </div>
    </section>
  );
}
