import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigContext } from '../../../shared/lib/config.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { createPublicConfig } from '../../../test/public-config.js';
import { CongratulationsPartnerRoute } from './congratulations-partner.js';

describe('CongratulationsPartnerRoute', () => {
  afterEach(() => uiState.reset());

  it("thanks the guarantor; 'Finalizar' goes to the lender's public site", () => {
    render(
      <ConfigContext value={createPublicConfig()}>
        <CongratulationsPartnerRoute />
      </ConfigContext>,
    );
    expect(screen.getByRole('heading', { name: '¡Gracias!' })).toBeTruthy();
    expect(screen.getByText('Gracias por aceptar ser aval. Nuestro equipo validará la información.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    expect(uiState.get().redirectUrl).toBe('https://provee.example');
  });
});
