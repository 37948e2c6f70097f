import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { CodeInput } from './code-input.js';

function Harness({ length = 6, initial = '' }: { length?: number; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <CodeInput length={length} value={value} onChange={setValue} label="Código de seguridad" />
      <output data-testid="value">{value}</output>
    </>
  );
}

const boxes = () => screen.getAllByRole('textbox');
const value = () => screen.getByTestId('value').textContent;

describe('CodeInput', () => {
  it('draws n numeric boxes, the first one offering the SMS code', () => {
    render(<Harness length={4} />);
    expect(boxes()).toHaveLength(4);
    expect(boxes()[0]!.getAttribute('autocomplete')).toBe('one-time-code');
    expect(boxes()[1]!.getAttribute('autocomplete')).toBe('off');
    for (const box of boxes()) expect(box.getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByRole('group', { name: 'Código de seguridad' })).toBeTruthy();
  });

  it('typing fills a box and moves to the next; letters are ignored', () => {
    render(<Harness />);
    fireEvent.change(boxes()[0]!, { target: { value: '4' } });
    expect(value()).toBe('4');
    expect(document.activeElement).toBe(boxes()[1]);
    fireEvent.change(boxes()[1]!, { target: { value: 'x' } });
    expect(value()).toBe('4');
  });

  it('a pasted code fills every box', () => {
    render(<Harness />);
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => ' 123-456 ' } });
    expect(value()).toBe('123456');
    expect(
      boxes()
        .map((box) => (box as HTMLInputElement).value)
        .join(''),
    ).toBe('123456');
  });

  it('the one-time-code suggestion on the first box fills every box', () => {
    render(<Harness />);
    fireEvent.change(boxes()[0]!, { target: { value: '987654' } });
    expect(value()).toBe('987654');
  });

  it('never holds more digits than boxes', () => {
    render(<Harness length={4} />);
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => '123456' } });
    expect(value()).toBe('1234');
  });

  it('Backspace clears the current box, or the previous one when empty', () => {
    render(<Harness initial="12" />);
    fireEvent.keyDown(boxes()[2]!, { key: 'Backspace' });
    expect(value()).toBe('1');
    expect(document.activeElement).toBe(boxes()[1]);
  });
});
