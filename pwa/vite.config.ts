import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['icons/favicon.svg'],
      manifest: {
        name: 'Norma — анализ рабочего времени по видео',
        short_name: 'Norma',
        description: 'Фотография рабочего дня, хронометраж и нормирование труда по видео с рабочих мест.',
        lang: 'ru',
        start_url: '/#/projects',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1f3a5f',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell (HTML, JS, CSS, fonts, icons) works offline; the API is never precached.
        globPatterns: ['**/*.{js,css,html,woff2,png,svg,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // Videos kept for offline markup (offline/videoCache.ts) are served from here, Range included.
            urlPattern: ({ url }) => url.pathname === '/api/v1/video',
            handler: 'CacheFirst',
            options: { cacheName: 'norma-videos', rangeRequests: true, cacheableResponse: { statuses: [200] } },
          },
          {
            // What the markup screen reads, so an opened video can be marked up again without a network.
            urlPattern: ({ url, request }) =>
              request.method === 'GET' &&
              /^\/api\/v1\/(video_markups|video_meta|available_operations|workplaces|employees|activities|other_videos|get_tasks)/.test(url.pathname),
            handler: 'NetworkFirst',
            options: { cacheName: 'norma-api', networkTimeoutSeconds: 4, cacheableResponse: { statuses: [200] } },
          },
        ],
      },
    }),
  ],
  // es2022: the core-wasm glue uses top-level await.
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
