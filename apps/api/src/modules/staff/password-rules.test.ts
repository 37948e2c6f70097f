import { describe, expect, it } from 'vitest';
import { PASSWORD_TOO_COMMON, staffPasswordProblem } from './password-rules.js';

describe('staff passwords (NIST SP 800-63B)', () => {
  it('refuses fewer than 12 characters, counted as people see them', () => {
    expect(staffPasswordProblem('corta')).toMatch(/al menos 12 caracteres/);
    expect(staffPasswordProblem('ñandúñandú1')).toMatch(/al menos 12 caracteres/);
  });

  it('refuses common and breached passwords, repeats, sequences and keyboard walks', () => {
    for (const password of [
      'aaaaaaaaaaaa',
      'password1234',
      'qwertyuiopas',
      '123456789012',
      'abcdefghijkl',
      '1q2w3e4r5t6y',
      'Password1234',
      'contraseña1234',
      'contraseña123456',
      'Contrasena2024',
    ])
      expect(staffPasswordProblem(password), password).toBe(PASSWORD_TOO_COMMON);
  });

  it('refuses the person’s own name or e-mail as the password', () => {
    const person = { email: 'mercedes.almonte@prestamista.test', name: 'Mercedes Almonte' };
    expect(staffPasswordProblem('mercedesalmonte', person)).toBe(PASSWORD_TOO_COMMON);
  });

  it('has no composition rules: a long phrase of plain words is fine', () => {
    expect(staffPasswordProblem('mi colmado abre a las siete')).toBeNull();
    expect(staffPasswordProblem('una-clave-larga-de-prueba')).toBeNull();
  });
});
