import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadScreenCopy } from '../shared/lib/copy.js';

// The screens' texts, which the router loads with the first screen past the landing.
await loadScreenCopy();

// jsdom has no matchMedia: answer "narrow phone screen" to every query.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
