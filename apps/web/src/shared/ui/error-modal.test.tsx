import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client.js';
import { uiState, useUiState } from '../lib/ui-state.js';
import { ErrorModal } from './error-modal.js';

function Harness() {
  const { error } = useUiState();
  return <ErrorModal error={error} onClose={uiState.clearError} />;
}

describe('generic error modal', () => {
  afterEach(() => uiState.reset());

  it.each([
    ['readable_message first', new ApiError(400, 'X', 'technical', 'Texto para la persona'), 'Texto para la persona'],
    ['then message', new ApiError(400, 'X', 'Solo mensaje', ''), 'Solo mensaje'],
    ['then the error text', 'Texto del error', 'Texto del error'],
  ])('shows %s', (_name, error, expected) => {
    render(<Harness />);
    act(() => uiState.showError(error));
    expect(screen.getByRole('dialog', { name: '¡Parece que hubo un error!' }).textContent).toContain(expected);
  });

  it('closing clears the error; the button label can be Continuar', () => {
    render(<Harness />);
    act(() => uiState.showError(new Error('falló'), { buttonLabel: 'Continuar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(uiState.get().error).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says Entendido by default', () => {
    render(<Harness />);
    act(() => uiState.showError(new Error('falló')));
    expect(screen.getByRole('button', { name: 'Entendido' })).toBeTruthy();
  });
});
