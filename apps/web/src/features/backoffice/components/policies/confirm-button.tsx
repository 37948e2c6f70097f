import { useState, type ReactNode } from 'react';
import { useSubmit } from '../../lib/use-submit.js';
import { Dialog } from '../dialog.js';
import { ErrorMessage } from '../messages.js';

interface Props {
  /** The button's text, and the dialog's question. */
  label: string;
  title: string;
  /** The confirming button's text (the label when absent). */
  confirm?: string;
  tone?: 'primary' | 'quiet' | 'danger';
  /** What the dialog explains before the person confirms. */
  children: ReactNode;
  run: () => Promise<void>;
}

/**
 * A change that matters (publish, make live, discard): one click opens the question, a second one
 * makes it. A step-up the API asks for opens over the question (the layout's dialog).
 */
export function ConfirmButton({ label, title, confirm = label, tone = 'primary', children, run }: Props) {
  const [open, setOpen] = useState(false);
  const { pending, error, submit } = useSubmit();
  const go = async () => {
    if (await submit(run)) setOpen(false);
  };
  const toneClass = tone === 'primary' ? '' : ` bo-button--${tone}`;
  return (
    <>
      <button type="button" className={`bo-button${toneClass}`} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <Dialog title={title} onClose={() => setOpen(false)}>
          {children}
          <ErrorMessage error={error} />
          <div className="bo-actions bo-policy-dialog-actions">
            <button
              type="button"
              className={tone === 'danger' ? 'bo-button bo-button--danger' : 'bo-button'}
              disabled={pending}
              onClick={() => void go()}
            >
              {confirm}
            </button>
            <button type="button" className="bo-button bo-button--quiet" onClick={() => setOpen(false)}>
              Cancelar
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
