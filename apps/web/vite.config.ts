import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const here = new URL('.', import.meta.url).pathname;

// `vite` proxies /api to the Fastify server (port 5200 unless AQA_API_URL says otherwise);
// `vite build` writes dist/, which that server serves in production.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, here, '');
  const apiTarget = env.AQA_API_URL || 'http://localhost:5200';
  return {
    plugins: [react(), tailwindcss()],
    resolve: { alias: { '@': `${here}src` } },
    server: {
      port: 5173,
      proxy: { '/api': { target: apiTarget, changeOrigin: true } },
    },
    preview: {
      port: 4173,
      proxy: { '/api': { target: apiTarget, changeOrigin: true } },
    },
    build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  };
});
