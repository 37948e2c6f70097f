import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Select } from './select.js';

describe('Select', () => {
  const options = [
    { value: 'SINGLE', label: 'Soltero(a)' },
    { value: 'MARRIED', label: 'Casado(a)' },
  ];

  it('is labelled and offers the placeholder first', () => {
    render(<Select label="Estado civil" options={options} placeholder="Selecciona" defaultValue="" />);
    const select = screen.getByLabelText('Estado civil') as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual(['Selecciona', 'Soltero(a)', 'Casado(a)']);
    expect(select.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows its error under the field and marks it invalid', () => {
    render(<Select label="Estado civil" options={options} error="* Selecciona su estado civil !" />);
    const select = screen.getByLabelText('Estado civil');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe('* Selecciona su estado civil !');
    expect(select.getAttribute('aria-describedby')).toBe(error.id);
  });
});
