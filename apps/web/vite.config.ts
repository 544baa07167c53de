import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const here = new URL('.', import.meta.url).pathname;

// `vite` proxies /api and /downloads (the aqa command line) to the Fastify server (port 5200 unless
// AQA_API_URL says otherwise);
// `vite build` writes dist/, which that server serves in production.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, here, '');
  const apiTarget = env.AQA_API_URL || 'http://localhost:5200';
  const proxy = {
    '/api': { target: apiTarget, changeOrigin: true },
    '/downloads': { target: apiTarget, changeOrigin: true },
  };
  return {
    plugins: [react(), tailwindcss()],
    resolve: { alias: { '@': `${here}src` } },
    server: {
      port: 5173,
      proxy,
    },
    preview: {
      port: 4173,
      proxy,
    },
    build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  };
});
