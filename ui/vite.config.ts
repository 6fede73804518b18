import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';

/**
 * The desktop shell's backend (src/lib/backend/tauri.ts) is a chunk of its own that only the desktop app
 * evaluates. A `modulepreload` link fetches and compiles it beside the main bundle, so that the app's first
 * calls to the shell need not wait for it to load after the first paint (docs/performance-journal.md, the desktop app
 * as a whole); a browser fetches its few kB without running it.
 */
function preloadDesktopBackend(): Plugin {
  return {
    name: 'preload-desktop-backend',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/lib/backend/tauri.ts'),
        );
        return chunk ? [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${chunk.fileName}` }, injectTo: 'head' }] : [];
      },
    },
  };
}

// One build for both the browser (served by `studio serve` at `/`) and the desktop shell (Tauri's frontendDist).
export default defineConfig({
  plugins: [svelte(), preloadDesktopBackend()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Non-ASCII characters escaped: a script that is all ASCII is kept by the JavaScript engine at one byte a
    // character instead of two (the desktop's WebKit held 0.5–0.8 MB less for the bundle; docs/performance-journal.md,
    // "The 68 MB taken apart").
    rolldownOptions: { output: { charset: 'ascii' } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  // Component tests run Svelte's browser build in jsdom.
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    // A style sheet read as text is read whole (src/font.test.ts); those a component imports stay empty.
    css: { include: [/\.css\?raw$/] },
  },
});
