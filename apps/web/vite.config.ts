import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    // The bundle budget test reads the manifest to add up what /home loads.
    manifest: true,
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { '/api': apiTarget, '/ops': apiTarget, '/dev': apiTarget },
  },
});
