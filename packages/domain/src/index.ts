export * from './constants.js';
export * from './session-keys.js';
export * from './country.js';
export * from './public-config.js';
export * from './errors.js';
export * from './chat.js';
export * from './phone.js';
export * from './routing.js';
