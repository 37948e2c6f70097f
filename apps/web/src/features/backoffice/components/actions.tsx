import { useState, type FormEvent } from 'react';
import { useSubmit } from '../lib/use-submit.js';
import { ErrorMessage } from './messages.js';

/** One button, one call; what went wrong shows beside it. */
export function ActionButton({ label, name, run }: { label: string; name?: string; run: () => Promise<void> }) {
  const { pending, error, submit } = useSubmit();
  return (
    <span className="bo-inline-action">
      <button
        type="button"
        className="bo-button bo-button--small"
        aria-label={name}
        disabled={pending}
        onClick={() => void submit(run)}
      >
        {label}
      </button>
      <ErrorMessage error={error} />
    </span>
  );
}

interface NoteButton {
  label: string;
  /** The accessible name, when the visible label alone is ambiguous on the page. */
  name: string;
  run: (note: string) => Promise<void>;
}

/** A required note (kept in the record) and one or more decisions taken with it. */
export function NoteForm({ id, buttons, hint }: { id: string; buttons: NoteButton[]; hint?: string }) {
  const [note, setNote] = useState('');
  const { pending, error, setError, submit } = useSubmit();
  const decide = async (button: NoteButton) => {
    if (note.trim().length < 3) {
      setError('Escribe una nota de al menos 3 caracteres.');
      return;
    }
    if (await submit(() => button.run(note.trim()))) setNote('');
  };
  return (
    <form className="bo-form bo-note-form" onSubmit={(e: FormEvent) => e.preventDefault()} noValidate>
      <label htmlFor={id}>Nota</label>
      {hint && (
        <p className="bo-muted" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <textarea
        id={id}
        value={note}
        rows={2}
        maxLength={500}
        required
        aria-describedby={[hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined}
        aria-invalid={typeof error === 'string' ? true : undefined}
        onChange={(e) => setNote(e.target.value)}
      />
      <ErrorMessage error={error} id={`${id}-error`} />
      <div className="bo-actions">
        {buttons.map((button) => (
          <button
            key={button.name}
            type="button"
            className="bo-button bo-button--small"
            aria-label={button.name}
            disabled={pending}
            onClick={() => void decide(button)}
          >
            {button.label}
          </button>
        ))}
      </div>
    </form>
  );
}
