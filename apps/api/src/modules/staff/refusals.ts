import { AppError } from '../../errors.js';

// The refusals the staff routes share (the statuses they document come with their calls: contract/staff.ts).
export const PASSWORD_LOGIN_OFF = (ssoName: string) =>
  new AppError(
    403,
    'PASSWORD_LOGIN_DISABLED',
    'password login disabled',
    `El inicio de sesión con contraseña está desactivado. Entra con ${ssoName}.`,
  );
export const NO_PASSKEYS = new AppError(
  409,
  'PASSKEYS_UNAVAILABLE',
  'passkeys unavailable',
  'Las llaves de acceso no están disponibles en esta dirección. Usa tu aplicación de autenticación.',
);
