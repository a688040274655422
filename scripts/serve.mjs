#!/usr/bin/env node
// A tiny static file server for the repository root (Node alone; marked, when installed, renders
// the docs), so the page under /www/ can load the generated module under /pkg/ (browsers refuse
// ES modules and wasm from file://).
//
//   node scripts/serve.mjs              # http://127.0.0.1:8080/www/
//   node scripts/serve.mjs 8765         # another port (or PORT=8765; 0: any free port)
//
// Tests import { startServer } and call startServer(0).
//
// The widget's files (any path with a www/ or pkg/ folder: the repository's, a release's) may be
// read by any origin (CORS: Access-Control-Allow-Origin: *, and Cross-Origin-Resource-Policy:
// cross-origin), as a host of the widget must allow for pages on other origins to load widget.js,
// its modules, workers, wasm and models (docs/widget.md); the rest of the working copy (src/,
// target/, …) is not offered to other sites. A Markdown file opened in the browser (README.md,
// docs/) is answered as a page of the site (scripts/markdown-page.mjs); `?raw`, or a fetch, gets
// the text.

import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { Transform } from "node:stream";
import { readFile, readdir, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { INDEX_PATH, assetIndex } from "./asset-index.mjs";
import { folderPage, markdownPage } from "./markdown-page.mjs";

const REPOSITORY_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".log": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".bin": "application/octet-stream",
};

/** Maps a request path to a file under `root`, or null when it would escape the root. */
function fileForPath(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  // No NUL bytes, and nothing hidden (.git, .env): this serves a working copy.
  if (decoded.includes("\0") || decoded.split("/").some((segment) => segment.startsWith("."))) return null;
  const candidate = normalize(join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  return candidate;
}

/** The widget's files: a path with a www/ or pkg/ folder. */
const WIDGET_FILES = /(^|\/)(www|pkg)\//;

/** What a response for `pathname` says: for the widget's files, anyone may read it (CORS); and `extra` (a test's Content-Security-Policy). */
function commonHeaders(pathname, extra) {
  const cors = WIDGET_FILES.test(pathname) ? { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" } : {};
  return { ...cors, ...extra };
}

/**
 * A stream that passes bytes on at `bytesPerSecond` (a slow host, for scripts/bench-visits.mjs).
 */
function throttled(bytesPerSecond) {
  const started = Date.now();
  let sent = 0;
  return new Transform({
    transform(chunk, _encoding, done) {
      sent += chunk.length;
      const due = started + (1000 * sent) / bytesPerSecond;
      setTimeout(() => done(null, chunk), Math.max(0, due - Date.now()));
    },
  });
}

/** Whether the browser opens the answer as a page (a navigation), rather than reading it (fetch, curl). */
function opensAsPage(request) {
  const destination = request.headers["sec-fetch-dest"];
  if (destination) return destination === "document";
  return (request.headers.accept ?? "").includes("text/html");
}

async function handle(root, request, response, extraHeaders, throttle) {
  if (throttle) await new Promise((resolve) => setTimeout(resolve, throttle.latencyMs));
  const { pathname, searchParams } = new URL(request.url, "http://localhost");
  for (const [name, value] of Object.entries(commonHeaders(pathname, extraHeaders))) response.setHeader(name, value);
  if (request.method === "OPTIONS") {
    response.writeHead(204, { Allow: "GET, HEAD, OPTIONS", "Access-Control-Allow-Methods": "GET, HEAD", "Access-Control-Max-Age": "86400" }).end();
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { Allow: "GET, HEAD" }).end();
    return;
  }
  if (pathname === "/") {
    response.writeHead(302, { Location: "/www/" }).end();
    return;
  }
  if (pathname === `/${INDEX_PATH}`) {
    // The asset index of the files as they are now (scripts/asset-index.mjs), so that a browser's
    // kept copies follow every edit.
    const body = JSON.stringify(await assetIndex(root));
    response.writeHead(200, { "Content-Type": MIME_TYPES[".json"], "Cache-Control": "no-store" });
    response.end(request.method === "HEAD" ? undefined : body);
    return;
  }
  let file = fileForPath(root, pathname);
  if (!file) {
    response.writeHead(403).end("forbidden");
    return;
  }
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      if (!pathname.endsWith("/")) {
        response.writeHead(301, { Location: `${pathname}/` }).end();
        return;
      }
      const folder = file;
      file = join(folder, "index.html");
      info = await stat(file).catch(async (error) => {
        // A docs folder (the docs link to some, as to a repository's) is listed as a page.
        if (!pathname.startsWith("/docs/") || !opensAsPage(request)) throw error;
        const entries = (await readdir(folder, { withFileTypes: true })).map((entry) => ({ name: entry.name, folder: entry.isDirectory() }));
        return { listing: folderPage(pathname, entries) };
      });
      if (info.listing) {
        response.writeHead(200, { "Content-Type": MIME_TYPES[".html"], "Cache-Control": "no-store", ...extraHeaders });
        response.end(request.method === "HEAD" ? undefined : info.listing);
        return;
      }
    }
    if (extname(file).toLowerCase() === ".md" && opensAsPage(request) && !searchParams.has("raw")) {
      const page = markdownPage(await readFile(file, "utf8"), pathname);
      if (page !== null) {
        response.writeHead(200, { "Content-Type": MIME_TYPES[".html"], "Cache-Control": "no-store", ...extraHeaders });
        response.end(request.method === "HEAD" ? undefined : page);
        return;
      }
    }
    response.writeHead(200, {
      "Content-Type": MIME_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "Content-Length": info.size,
      // The page is developed against a module that is rebuilt often: never serve a stale one
      // (unless the caller's headers say otherwise, as a release host would).
      "Cache-Control": "no-store",
      ...extraHeaders,
    });
    if (request.method === "HEAD") {
      response.end();
      return;
    }
    const body = createReadStream(file);
    if (throttle) body.pipe(throttled(throttle.bytesPerSecond)).pipe(response);
    else body.pipe(response);
  } catch {
    response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found");
  }
}

/**
 * Starts the server on 127.0.0.1 (`port` 0 picks a free one) for the files under `root`; `headers`
 * go on every response besides the CORS ones; `throttle` ({ latencyMs, bytesPerSecond }) makes it
 * a slow host (benchmarks only).
 * Resolves to { url, port, origin, close } where url is the page address (…/www/) and close() stops it.
 */
export function startServer(port = 8080, root = REPOSITORY_ROOT, { headers = {}, throttle = null } = {}) {
  const server = createServer((request, response) => {
    handle(root, request, response, headers, throttle).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const actualPort = server.address().port;
      resolvePromise({
        url: `http://127.0.0.1:${actualPort}/www/`,
        origin: `http://127.0.0.1:${actualPort}`,
        port: actualPort,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

const runDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  const port = Number.parseInt(process.argv[2] ?? process.env.PORT ?? "8080", 10);
  const { url } = await startServer(Number.isNaN(port) ? 8080 : port);
  console.log(`puzzlelab is being served at ${url}`);
}
