import type { SelectHTMLAttributes } from 'react';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> {
  label: string;
  /** The choices, in order: the value sent, and the name shown. */
  options: readonly (readonly [value: string, name: string])[];
  /** A first choice that narrows nothing ('Todos' in a filter), sent as ''. */
  any?: string;
}

/**
 * A labelled select of the back office. The select is named on its own: named by its wrapping
 * label, it would also read out every option.
 */
export function SelectField({ label, options, any, ...select }: SelectFieldProps) {
  return (
    <label>
      {label}
      <select aria-label={label} {...select}>
        {any !== undefined && <option value="">{any}</option>}
        {options.map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
