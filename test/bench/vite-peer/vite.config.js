// Vite 8 + vite-plugin-pwa 2 (Workbox) in prompt mode, its defaults otherwise: Workbox precaches
// the build's js, css and html. PEER_SAME_FILES=1 (set by test/bench/vite-peer.mjs --same-files)
// also precaches what public/ holds: offline-shell's other files, copied there by that script (the
// plugin adds its web manifest itself).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const sameFiles = process.env.PEER_SAME_FILES === '1';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: null,
      manifest: { name: 'Peer', short_name: 'Peer', start_url: '/', display: 'standalone', icons: [] },
      workbox: sameFiles ? { globPatterns: ['**/*.{js,css,html,png,txt,json}'] } : {},
    }),
  ],
});
