import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './precompress.ts';
import { prerender } from './prerender.ts';

const API_TARGET = process.env.VIGIL_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  base: '/app/',
  plugins: [react(), prerender(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/oauth-bff': API_TARGET,
      '/monitor-bff': API_TARGET,
      '/sandbox': API_TARGET,
    },
  },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk with it. Left alone, Rolldown cuts the modules the
          // entry shares with lazy chunks into small chunks of their own (ten files before the first render instead
          // of one), and each costs a request on a phone's connection.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    environmentOptions: { happyDOM: { url: 'http://localhost:3000/app/' } },
  },
});
