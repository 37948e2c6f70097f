import { PASSWORD_LENGTH } from '../constants.js';

export const PASSWORD_MESSAGES = {
  required: '* Ingresa tu contraseña de 6 dígitos !',
  format: '* Escribe los 6 números de tu contraseña.',
  confirmation: '* Confirma tu contraseña !',
  mismatch: '* Las contraseñas no coinciden.',
  obvious: '* Elige una contraseña menos obvia: no repitas un número ni uses números seguidos.',
  birthDate: '* No uses tu fecha de nacimiento.',
  phone: '* No uses los últimos números de tu teléfono.',
} as const;

/** 111111, 123456, 654321, 890123 … */
function isObvious(password: string): boolean {
  const digits = [...password].map(Number);
  const steps = digits.slice(1).map((digit, i) => (digit - digits[i]! + 10) % 10);
  return steps.every((step) => step === 0) || steps.every((step) => step === 1) || steps.every((step) => step === 9);
}

export interface PasswordContext {
  /** 'yyyy-MM-dd' when known (the server knows it; the screen may not). */
  dob?: string | undefined;
  /** National number, 10 digits. */
  phone?: string | undefined;
}

/** SPEC §5: 6 digits and its confirmation; refuses what is easy to guess (the server checks all of it). */
export function passwordErrors(
  password: string,
  confirmation: string,
  context: PasswordContext = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!password) errors.password = PASSWORD_MESSAGES.required;
  else if (!new RegExp(`^\\d{${PASSWORD_LENGTH}}$`).test(password)) errors.password = PASSWORD_MESSAGES.format;
  else if (isObvious(password)) errors.password = PASSWORD_MESSAGES.obvious;
  else if (context.dob && birthDateForms(context.dob).includes(password)) errors.password = PASSWORD_MESSAGES.birthDate;
  else if (context.phone && context.phone.slice(-PASSWORD_LENGTH) === password)
    errors.password = PASSWORD_MESSAGES.phone;
  if (!confirmation) errors.password_confirmation = PASSWORD_MESSAGES.confirmation;
  else if (password && confirmation !== password) errors.password_confirmation = PASSWORD_MESSAGES.mismatch;
  return errors;
}

/** DDMMYY and YYMMDD of a 'yyyy-MM-dd' date. */
export function birthDateForms(dob: string): string[] {
  const [year, month, day] = dob.split('-');
  const yy = (year ?? '').slice(2);
  return [`${day}${month}${yy}`, `${yy}${month}${day}`];
}
