import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin, type Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pdfFallbackFont } from './build-plugins/pdf-fallback-font';
import { videoUrl } from './src/api/paths';
import type { LandingPrerenderer } from './src/prerendered-landing';

/** Files worth compressing (text and wasm); images and fonts (woff2 is compressed already) are not. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|webmanifest|svg|txt|wasm)$/;
/** Above this size brotli runs at a faster setting. */
const LARGE_FILE = 4 * 1024 * 1024;

/** Every file under a folder, skipping dot folders (.vite: the chunk graph, never served). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    return entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)];
  });
}

/**
 * Writes `x.br` and `x.gz` beside every text file of the build, at the strongest settings (once per
 * build, not per request: brotli 11 takes seconds); api/src/http/static.ts serves them by
 * Accept-Encoding. Runs after vite-plugin-pwa has written sw.js (closeBundle, sequential, 'post').
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'norma:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      handler() {
        for (const file of filesUnder(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const data = readFileSync(file);
          const copies = {
            // onnxruntime's wasm (14 and 27 MB) would take over a minute at 11; 7 costs a few seconds and 15% in size.
            br: brotliCompressSync(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: data.length > LARGE_FILE ? 7 : 11,
                [constants.BROTLI_PARAM_LGWIN]: 24,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gz: gzipSync(data, { level: 9 }),
          };
          // A copy no smaller than the file (a tiny one) is not written: the file goes out as it is.
          for (const [ext, copy] of Object.entries(copies)) if (copy.length < data.length) writeFileSync(`${file}.${ext}`, copy);
        }
      },
    },
  };
}

/**
 * Writes dist/.vite/chunks.json: every JS chunk with the modules in it and the chunks it imports
 * (statically, i.e. loaded with it, and dynamically, i.e. on demand). tests/first-load/pwa-chunks.test.ts
 * reads it to check which libraries each first screen loads; bench/first-load.bench.ts sums sizes.
 */
function chunkGraph(): Plugin {
  return {
    name: 'norma:chunk-graph',
    apply: 'build',
    generateBundle(_options, bundle) {
      // Paths from the repository root: pwa/src/…, node_modules/…
      const root = `${resolve(import.meta.dirname, '..')}/`;
      const chunks = Object.values(bundle).flatMap((item) =>
        item.type === 'chunk'
          ? [
              {
                file: item.fileName,
                isEntry: item.isEntry,
                imports: item.imports,
                dynamicImports: item.dynamicImports,
                modules: item.moduleIds.map((id) => id.replace(root, '').replace(/^\0/, '')),
              },
            ]
          : [],
      );
      this.emitFile({ type: 'asset', fileName: '.vite/chunks.json', source: JSON.stringify({ chunks }, null, 1) });
    },
  };
}

/** The JS chunks of a build and its one entry chunk (index.html's script). */
function chunksOf(bundle: Rolldown.OutputBundle, plugin: string) {
  const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error(`${plugin}: no entry chunk in the bundle`);
  return { chunks, entry };
}

/**
 * The chunk a screen's import() asks for: the module's own, or the facade Rolldown writes for it
 * when a codeSplitting group holds the module (shellGraph) — that one imports the group.
 */
function screenChunkOf(chunks: Rolldown.OutputChunk[], module: string, plugin: string) {
  const screen =
    chunks.find((chunk) => chunk.facadeModuleId?.endsWith(`/${module}`)) ?? chunks.find((chunk) => chunk.moduleIds.some((id) => id.endsWith(`/${module}`)));
  if (!screen) throw new Error(`${plugin}: no chunk holds ${module}`);
  return screen;
}

/**
 * Screens opened cold from a link, whose code should not wait for the entry chunk to arrive and
 * run (on a phone network that wait is most of a second): the hash route prefix and the screen's
 * module. The shared report (/#/demo/{key}) is opened by visitors with nothing cached.
 */
const PRELOADED_ROUTES: { hash: string; module?: string; chunk?: string; shareKeyApi?: string; shareReportApi?: string; worker?: string; video?: string }[] = [
  {
    hash: '#/demo/',
    module: 'src/screens/reports/interactive/InteractiveScreen.tsx',
    chunk: 'interactive-report',
    shareKeyApi: '/api/v1/resolve_hash/',
    shareReportApi: '/api/v2/frv',
  },
  // A statement (issue 47): its code loads while the app starts, and its worker (the emitted file
  // whose name starts with `worker`) starts at once and is asked for the statement of the address
  // (src/screens/reports/statement-runner.ts takes both over). Its chunks stay as Rolldown cuts them
  // (no `chunk` group): they are shared with the other report screens, which must not load the statement's.
  { hash: '#/statement/', module: 'src/screens/reports/statement/StatementScreen.tsx', worker: 'statement.worker-' },
  // The markup screen (issue 47): its recording starts loading now, before the app's code has come
  // and run (src/screens/video-markup/early-video.ts takes the element over). Its chunks are not
  // preloaded: measured, that gained nothing (docs/performance.md, «Экран разметки»).
  { hash: '#/video/', video: videoUrlTemplate() },
];

/** The recording's URL with `{id}` for the video's id (the route-preload script puts the address's in). */
function videoUrlTemplate() {
  const mark = 987654321;
  const url = videoUrl(mark);
  if (!url.includes(String(mark))) throw new Error('norma:route-preload: the video URL has no id in it');
  return url.replace(String(mark), '{id}');
}

/** The text of the route-preload script (routePreload) for these routes. */
function preloadScript(
  routes: { hash: string; files: string[]; styles: string[]; api?: string; report: string | null; worker: string | null; video: string | null }[],
): string {
  return `(function () {
  var routes = ${JSON.stringify(routes)};
  // The older form of a shared report's link, /#/demo/{key}: its key never reaches the server, so its page
  // cannot carry the report. It goes to the served form, /demo/{key}, which comes back to this hash route
  // below with the report inside (issue 47: 3.3 s to the table instead of 2.3 s on a phone).
  var older = location.pathname === '/' && /^#\\/demo\\/([A-Za-z0-9_-]{16,200})$/.exec(location.hash);
  // Stopped first, so that nothing of this page (the entry chunk, the screen's reads) loads meanwhile.
  if (older) {
    window.stop();
    return location.replace('/demo/' + older[1] + location.search);
  }
  // A shared report's link, /demo/{key}: the server put the report into this page (api/src/report/share-page.ts)
  // or found nothing to put. The app's own address is the hash route; nothing is read early here.
  var served = /^\\/demo\\/([A-Za-z0-9_-]{16,200})$/.exec(location.pathname);
  if (served && !location.hash) history.replaceState(history.state, '', '/' + location.search + '#/demo/' + served[1]);
  var hash = location.hash;
  // src/main.tsx hydrates the prerendered landing page on the same condition: wouter's hash location is '/', and online.
  if ('/' + hash.replace(/^#?\\/?/, '') === '/' && navigator.onLine !== false) document.documentElement.classList.add('at-landing');
  function link(rel, href, as) {
    var element = document.createElement('link');
    element.rel = rel;
    element.href = href;
    // The credentials mode of the later request (a module script, a same-origin fetch()), so it reuses this one.
    element.crossOrigin = 'anonymous';
    if (as) element.as = as;
    document.head.appendChild(element);
  }
  // The page names the screen's chunks and styles itself (api/src/report/share-page.ts): a second
  // <link> to the same style sheet would have the browser parse it again (≈ 130 ms on a phone).
  var named = document.documentElement.hasAttribute('data-screen-links');
  for (var i = 0; i < routes.length; i++) {
    if (hash.indexOf(routes[i].hash) !== 0) continue;
    if (!named) {
      for (var j = 0; j < routes[i].files.length; j++) link('modulepreload', routes[i].files[j]);
      for (var k = 0; k < routes[i].styles.length; k++) link('stylesheet', routes[i].styles[k]);
    }
    if (routes[i].worker && window.Worker && !window.__normaStatementWorker) startStatement(routes[i].worker, hash.slice(routes[i].hash.length));
    if (routes[i].video && !window.__normaEarlyVideo) startVideo(routes[i].video, hash.slice(routes[i].hash.length));
    var key = hash.slice(routes[i].hash.length).split(/[/?#]/)[0];
    if (served || !routes[i].api || !/^[A-Za-z0-9_-]{16,200}$/.test(key)) continue;
    if (routes[i].report && window.fetch && window.Promise) window.__normaSharedReport = sharedReport(routes[i], key);
    else link('preload', routes[i].api + encodeURIComponent(key), 'fetch');
  }
  // A statement's address: its worker starts now, before the app's code is here, and is asked for the
  // statement of the address's parts (request id 0); the app takes the worker over with what it has
  // answered by then (src/screens/reports/statement-runner.ts, which reads the parts as the screen does).
  function startStatement(url, rest) {
    var parts = rest.split(/[?#]/)[0].split('/');
    var early = { worker: null, params: { structureId: parts[0], employeeId: parts[1], fromTime: parts[2], toTime: parts[3] }, replies: [], failed: null };
    try {
      early.worker = new Worker(url, { type: 'module', name: 'norma-statement' });
    } catch (error) {
      return;
    }
    early.worker.onmessage = function (event) {
      early.replies.push(event.data);
    };
    early.worker.onerror = function (event) {
      event.preventDefault();
      early.failed = String(event.message);
    };
    early.worker.postMessage({ type: 'address', id: 0, params: early.params });
    window.__normaStatementWorker = early;
  }
  // A markup screen's address: its recording starts loading now, as the player's element would
  // (src/screens/video-markup/early-video.ts, makeVideo: the same settings), and the app takes the
  // element over. A refused load (no sign-in yet) leaves an element in error, which the app drops.
  function startVideo(template, rest) {
    var id = rest.split(/[/?#]/)[0];
    if (!/^[1-9][0-9]{0,15}$/.test(id)) return;
    var video = document.createElement('video');
    video.preload = 'auto';
    video.muted = true;
    video.playsInline = true;
    video.src = template.replace('{id}', id);
    window.__normaEarlyVideo = video;
  }
  // The key's window, then the report over it, as the screen would read them (same URLs and
  // credentials); null on any failure: the screen then reads them itself and shows its error.
  function sharedReport(route, key) {
    function read(url) {
      return fetch(url, { credentials: 'same-origin' }).then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      });
    }
    return read(route.api + encodeURIComponent(key))
      .then(function (share) {
        var query = new URLSearchParams({ structure_id: String(share.structure_id), from_time: share.from_time, to_time: share.to_time, key: key });
        return read(route.report + '?' + query).then(function (frv) {
          return { key: key, share: share, frv: frv };
        });
      })
      .catch(function () {
        return null;
      });
  }
})();
`;
}

/**
 * Adds a tiny script to index.html (a file, not inline: the Content-Security-Policy allows no
 * inline scripts) that runs before the page's body is parsed, while the style sheet and the entry
 * chunk load. It marks <html> with `at-landing` where the landing page prerendered into index.html
 * is to be shown (norma:prerender-landing below: elsewhere index.html's style keeps it hidden, so a
 * deep link or the installed app never flashes the landing page). For a route of PRELOADED_ROUTES
 * it starts loading that screen's chunks (modulepreload, the links Vite's own loader looks for, so
 * nothing loads twice) and the share key's first API read (a fetch preload the screen's fetch()
 * picks up). Saves about 0.7 s on the shared report's first load (docs/performance.md, «Быстрая
 * первая загрузка»). Where the route names its report's read too (shareReportApi), the script reads
 * the key's window itself and then the report, without waiting for the app's JS, and leaves the
 * promise in window.__normaSharedReport for the screen (SharedInteractiveScreen) to pick up; it
 * resolves to null on any failure, and the screen then reads as it would without it. A shared
 * report's link in its server-visible form, /demo/{key}, becomes the hash route /#/demo/{key} here
 * (before the app reads its address); its page carries the report already (api/src/report/share-page.ts),
 * so nothing is read early for it. Where the route names a worker (a statement), the script starts it
 * and asks it for the address's statement (the app takes it over: src/screens/reports/statement-runner.ts).
 * It blocks the parser, but is fetched beside the style sheet, which blocks the first paint anyway.
 */
function routePreload(): Plugin {
  return {
    name: 'norma:route-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const { chunks, entry } = chunksOf(bundle, 'norma:route-preload');
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') throw new Error('norma:route-preload: no index.html in the bundle');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const loaded = (start: string[]) => {
          const seen = new Set<string>();
          const queue = [...start];
          while (queue.length) {
            const file = queue.pop()!;
            if (seen.has(file)) continue;
            seen.add(file);
            queue.push(...(byFile.get(file)?.imports ?? []));
          }
          return seen;
        };
        const withEntry = loaded([entry.fileName]);
        const workerFile = (prefix: string) => {
          const file = Object.keys(bundle).find((name) => name.startsWith(`assets/${prefix}`) && name.endsWith('.js'));
          if (!file) throw new Error(`norma:route-preload: no worker file ${prefix}*.js`);
          return `/${file}`;
        };
        const routes = PRELOADED_ROUTES.map(({ hash, module, shareKeyApi, shareReportApi, worker, video }) => {
          const screen = module ? screenChunkOf(chunks, module, 'norma:route-preload') : null;
          const own = screen ? [...loaded([screen.fileName])].filter((file) => !withEntry.has(file)) : [];
          // Their style sheets too: Vite's loader waits for a chunk's CSS before the screen renders,
          // and takes a <link rel="stylesheet"> already in the page as loaded.
          const styles = own.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]);
          return {
            hash,
            files: own.map((file) => `/${file}`),
            styles: styles.map((file) => `/${file}`),
            api: shareKeyApi,
            report: shareReportApi ?? null,
            worker: worker ? workerFile(worker) : null,
            video: video ?? null,
          };
        });
        const script = preloadScript(routes);
        const fileName = this.getFileName(this.emitFile({ type: 'asset', name: 'route-preload.js', source: script }));
        // For the server (api/src/report/share-page.ts): the page of a shared report's link names the
        // screen's chunks and styles itself, so they load beside the entry chunk, not after this script.
        this.emitFile({ type: 'asset', fileName: '.vite/routes.json', source: JSON.stringify(routes) });
        html.source = String(html.source).replace('</title>', `</title>\n    <script src="/${fileName}"></script>`);
      },
    },
  };
}

/** The screens whose own chunk runs mostly while it opens, and is worth compiling ahead (compileHints). */
const EAGERLY_COMPILED_SCREENS = ['src/screens/video-markup/VideoMarkupScreen.tsx'];

/**
 * Marks the chunks that nearly all run while the app opens — the entry, what it imports (React and
 * the app's frame: the `shell` group), and EAGERLY_COMPILED_SCREENS' own chunks — with V8's explicit
 * compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136+; other engines read a comment). V8
 * then compiles all their functions while the file streams in, off the main thread, instead of
 * each on its first call on the main thread. On a tablet's CPU (4× slower) that was 200 ms of the
 * markup screen's cold open (V8.CompileCode, ParseFunction and CompileIgnition in a trace), and the
 * open came 50–150 ms sooner in two comparisons (docs/performance.md). After minification, which
 * would drop the comment.
 */
function compileHints(): Plugin {
  return {
    name: 'norma:compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const { chunks, entry } = chunksOf(bundle, 'norma:compile-hints');
        const screens = EAGERLY_COMPILED_SCREENS.map((module) => screenChunkOf(chunks, module, 'norma:compile-hints').fileName);
        const marked = new Set([entry.fileName, ...entry.imports, ...screens]);
        for (const chunk of chunks) if (marked.has(chunk.fileName)) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
      },
    },
  };
}

/** Text for HTML: element content and attribute values in double quotes. */
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Renders the landing page ('/' for a visitor who is not signed in) into index.html at build time:
 * src/prerender.tsx (react-dom/server, the same App tree) loaded through a Vite SSR loader, its HTML
 * put into <div id="root" data-prerendered>, the page's title and description into <head>. The first
 * paint then waits for the HTML and the style sheet, not for the JS bundle; src/main.tsx hydrates
 * the page (docs/site.md, «Быстрая главная»). Runs before vite-plugin-pwa precaches index.html and
 * before norma:precompress.
 */
function prerenderLanding(): Plugin {
  return {
    name: 'norma:prerender-landing',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') throw new Error('norma:prerender-landing: no index.html in the bundle');
        const server = await createServer({
          configFile: false,
          root: import.meta.dirname,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const { renderLanding } = (await server.ssrLoadModule('/src/prerender.tsx')) as LandingPrerenderer;
          const page = renderLanding();
          const before = String(html.source);
          const after = before
            .replace(`<title>${escapeHtml(page.defaults.title)}</title>`, `<title>${escapeHtml(page.title)}</title>`)
            .replace(
              `<meta name="description" content="${escapeHtml(page.defaults.description)}" />`,
              `<meta name="description" content="${escapeHtml(page.description)}" />`,
            )
            .replace('<div id="root"></div>', `<div id="root" data-prerendered>${page.html}</div>`);
          if (!after.includes(page.title) || !after.includes(page.description) || !after.includes('data-prerendered'))
            throw new Error('norma:prerender-landing: index.html lacks the default title, description or an empty #root');
          html.source = after;
        } finally {
          await server.close();
        }
      },
    },
  };
}

/**
 * What the entry loads with it: the modules reachable from index.html's script by static imports,
 * found when the module graph is complete (buildEnd) and put into one chunk by the codeSplitting
 * group below. Without it Rolldown, which turns its chunk merging off once any module has a
 * top-level await (core-wasm's glue has one), cuts the entry into a dozen small files: on a phone
 * network each is a request, and six at a time over HTTP/1.1 (about +0.5 s to the first paint).
 * For the same reason each screen of PRELOADED_ROUTES that names a `chunk`, opened cold from a link, is one chunk too:
 * its module and everything it imports statically that the entry has not (the shared report was
 * nine files: a third round of requests on a phone).
 */
const shellModules = new Set<string>();
const screenModules = new Map<string, Set<string>>(
  PRELOADED_ROUTES.flatMap(({ chunk }): [string, Set<string>][] => (chunk ? [[chunk, new Set<string>()]] : [])),
);
function shellGraph(): Plugin {
  return {
    name: 'norma:shell-graph',
    apply: 'build',
    buildEnd() {
      const staticClosure = (start: string[], into: Set<string>, skip: (id: string) => boolean) => {
        const queue = [...start];
        const seen = new Set<string>();
        while (queue.length) {
          const id = queue.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          if (!skip(id)) into.add(id);
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      shellModules.clear();
      const ids = [...this.getModuleIds()];
      // index.html, its script and src/main.tsx stay in the entry chunk (a group holding them leaves no entry).
      staticClosure(
        ids.filter((id) => this.getModuleInfo(id)?.isEntry),
        shellModules,
        (id) => !!this.getModuleInfo(id)?.isEntry || /\.html(\?|$)/.test(id) || id.endsWith('/src/main.tsx'),
      );
      for (const { module, chunk } of PRELOADED_ROUTES) {
        if (!chunk) continue;
        const modules = screenModules.get(chunk)!;
        modules.clear();
        const screen = ids.find((id) => id.endsWith(`/${module}`));
        if (!screen) throw new Error(`norma:shell-graph: no module ${module}`);
        staticClosure([screen], modules, (id) => shellModules.has(id));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    shellGraph(),
    pdfFallbackFont(),
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
      // A hand-written worker (src/sw.ts): precached shell, offline API reads, Background Sync of
      // the markup outbox; clientsClaim + skipWaiting there, so the first session is controlled.
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectManifest: {
        // The report core's wasm (6 KB) too: the markup screen's gap filling needs it, so a tablet that
        // installed the app opens markup offline without having loaded a report first.
        globPatterns: ['**/*.{js,css,html,woff2,png,svg,webmanifest}', 'assets/core-*.wasm'],
      },
    }),
    routePreload(),
    compileHints(),
    prerenderLanding(),
    chunkGraph(),
    precompress(),
  ],
  build: {
    // es2022: the core-wasm glue uses top-level await.
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in dist: they are public there (10 MB of our source), and nobody reads them.
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'shell', test: (id: string) => shellModules.has(id) },
            ...[...screenModules].map(([name, modules]) => ({ name, test: (id: string) => modules.has(id) })),
          ],
        },
      },
    },
  },
  // The inference worker (src/ml) loads onnxruntime-web with dynamic imports: only ES module workers split code.
  worker: { format: 'es' },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
