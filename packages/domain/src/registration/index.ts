export * from './cedula.js';
export * from './dates.js';
export * from './forms.js';
export * from './names.js';
export * from './options.js';
export * from './rfc.js';
export * from './password.js';
