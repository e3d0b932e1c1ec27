import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { FIRST_LOAD_GROUPS, compileHints, preloadFirstLoadChunks } from './chunks.ts';
import { earlyScript } from './early-script.ts';
import { precompress } from './precompress.ts';
import { prerender } from './prerender.ts';
import { pruneCss } from './prune-css.ts';
import { scrollAreaRefs } from './scroll-area-refs.ts';
import { stylesheetsAfterPaint } from './stylesheets-after-paint.ts';

const API_TARGET = process.env.VIGIL_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  base: '/app/',
  plugins: [
    react(),
    scrollAreaRefs(),
    pruneCss(),
    preloadFirstLoadChunks(),
    compileHints(),
    earlyScript(),
    stylesheetsAfterPaint(),
    prerender(),
    precompress(),
  ],
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
        codeSplitting: { groups: FIRST_LOAD_GROUPS },
      },
    },
  },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', '*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    environmentOptions: { happyDOM: { url: 'http://localhost:3000/app/' } },
  },
});
