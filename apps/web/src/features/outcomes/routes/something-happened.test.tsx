import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderScreenAt } from '../../../test/render-screen.js';
import { SomethingHappenedRoute } from './something-happened.js';

const renderAt = (url: string) =>
  renderScreenAt(url, <Route path="/something-happened" element={<SomethingHappenedRoute />} />);

const chatText = () =>
  new URL((screen.getByRole('link', { name: 'Contactar a soporte' }) as HTMLAnchorElement).href).searchParams.get(
    'text',
  );

describe('/something-happened (SPEC §2.4)', () => {
  it('a guarantor is told to contact the person they guarantee', () => {
    renderAt('/something-happened?person_type=collateral');
    expect(screen.getByRole('heading', { level: 1, name: 'Algo pasó' })).toBeTruthy();
    expect(screen.getByText('No pudimos validar tus documentos en este momento.')).toBeTruthy();
    expect(
      screen.getByText('Ponte en contacto con la persona de la que eres aval para saber cómo sigue su crédito.'),
    ).toBeTruthy();
    expect(chatText()).toContain('soy aval');
  });

  it('the shopkeeper (waiting, their own review) is told the review goes on', () => {
    renderAt('/something-happened');
    expect(screen.getByText(/Seguimos trabajando en ella y te avisaremos por mensaje/)).toBeTruthy();
    expect(screen.queryByText(/persona de la que eres aval/)).toBeNull();
    expect(chatText()).toBe('Hola, mi registro se quedó en revisión y quiero saber cómo va.');
  });
});
