import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';

interface CodeInputProps {
  length: number;
  value: string;
  onChange: (value: string) => void;
  /** Accessible name of the group, e.g. 'Código de seguridad'. */
  label: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

/**
 * n one-digit boxes. Typing moves forward, Backspace on an empty box moves back, and a
 * paste (or the phone's one-time-code suggestion on the first box) fills every box.
 */
export function CodeInput({ length, value, onChange, label, disabled, autoFocus }: CodeInputProps) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const digits = Array.from({ length }, (_, i) => value[i] ?? '');

  const focus = (index: number) => refs.current[Math.max(0, Math.min(length - 1, index))]?.focus();

  /** Writes the typed or pasted digits from box `index` on, over what was there. */
  const writeAt = (index: number, typed: string) => {
    const clean = typed.replace(/\D/g, '');
    if (!clean) return;
    const start = Math.min(index, value.length);
    const next = (value.slice(0, start) + clean + value.slice(start + clean.length)).slice(0, length);
    onChange(next);
    focus(start + clean.length);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      const cut = digits[index] ? index : index - 1;
      if (cut < 0) return;
      onChange(value.slice(0, cut));
      focus(cut);
    } else if (event.key === 'ArrowLeft') {
      focus(index - 1);
    } else if (event.key === 'ArrowRight') {
      focus(index + 1);
    }
  };

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    writeAt(index, event.clipboardData.getData('text'));
  };

  return (
    <div className="code-input" role="group" aria-label={label}>
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            refs.current[index] = element;
          }}
          className="code-box"
          value={digit}
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={`${label}, dígito ${index + 1} de ${length}`}
          // The first box takes a whole suggested code; the others one digit each.
          maxLength={index === 0 ? length : 1}
          disabled={disabled}
          autoFocus={autoFocus && index === 0}
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => writeAt(index, event.currentTarget.value)}
          onKeyDown={(event) => onKeyDown(index, event)}
          onPaste={(event) => onPaste(index, event)}
        />
      ))}
    </div>
  );
}
