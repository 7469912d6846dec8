import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API serves dist/ itself (index.html no-cache, assets/ immutable), so hashed names are required.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // `npm run dev` talks to a local API (all-in-one on its default port).
    proxy: { '/api': 'http://127.0.0.1:8090' },
  },
});
