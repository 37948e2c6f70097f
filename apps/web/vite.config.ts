import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The domain's registration rules and signing rules serve later screens only: they stay out of it.
const FIRST_LOAD =
  /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]|[\\/]src[\\/](app|shared)[\\/]|[\\/]packages[\\/]domain[\\/]src[\\/](?!registration|signing\.|backoffice\.)/;
const LATER =
  /[\\/]src[\\/]shared[\\/](hooks|lib[\\/](users-api|format|step-errors)|ui[\\/](code-input|countdown|select|text-field|stepper|checkbox))/;

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    // The bundle budget test reads the manifest to add up what /home loads.
    manifest: true,
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // What /home needs travels in one file (React, the router, the shell, the shared pieces
        // of the landing): on 3G one more file costs a round trip. Pieces only later screens use
        // stay out of it, so the first load carries no form code it does not need.
        codeSplitting: {
          groups: [{ name: 'app', test: (id: string) => FIRST_LOAD.test(id) && !LATER.test(id) }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': apiTarget, '/ops': apiTarget, '/dev': apiTarget },
  },
});
