// serve.mjs: a small static file server for web/, bound to 127.0.0.1. Used by `make demo`
// and by the browser tests. Usage: node tools/serve.mjs [dir] [port]
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm",
};

/**
 * The Content-Security-Policy of every page served here: no inline script or style and no eval
 * (WebAssembly compiles under 'wasm-unsafe-eval'). connectSrc: where a custom scene (src=) may
 * be fetched from. The pages that hold no author's markup (index.html, embed.html) add Trusted
 * Types in their own <meta> policy, so that no string can ever be written there as HTML.
 */
export function policy(connectSrc = "'self'") {
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connectSrc}`,
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * The policy sent with an HTML page: `header`, with the hashes of the inline script and style
 * that the page's own <meta> policy allows (web/index.html's start and style.css, written in by
 * tools/bundle.mjs), as a host that serves the page adds them. A page that lists none gets
 * `header` as it is.
 */
export function pagePolicy(header, html) {
  const meta =
    html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/)?.[1] ?? "";
  let sent = header;
  for (const directive of ["script-src", "style-src"]) {
    const listed = meta.match(new RegExp(`${directive} [^;]*`))?.[0] ?? "";
    const hashes = listed.match(/'sha256-[A-Za-z0-9+/=]+'/g) ?? [];
    if (hashes.length)
      sent = sent.replace(new RegExp(`${directive} [^;]*`), (d) => `${d} ${hashes.join(" ")}`);
  }
  return sent;
}

export const trustedTypes = "require-trusted-types-for 'script'; trusted-types train-worker";

// Each file's gzipped bytes, kept while the file is unchanged: the browser tests load the same
// few files hundreds of times, and gzip took about 10 ms a page.
const gzipped = new Map();
function gzipOf(file, body) {
  const kept = gzipped.get(file);
  if (kept?.body.equals(body)) return kept.gz;
  const gz = gzipSync(body);
  gzipped.set(file, { body, gz });
  return gz;
}

/**
 * Serves root on 127.0.0.1:port (0 picks a free port); resolves to { server, url }.
 * routes: { "/path": (request, response) => … } answered instead of files (tests use them).
 * URLs up to 1 MB are read, so that the tests can hand the page the links a hostile author could.
 */
export function serve(root, port = 0, headers = {}, routes = {}) {
  const base = resolve(root);
  const server = createServer({ maxHeaderSize: 1 << 20 }, async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    if (Object.hasOwn(routes, path)) {
      routes[path](request, response);
      return;
    }
    const file = normalize(join(base, path.endsWith("/") ? path + "index.html" : path));
    if (!file.startsWith(base)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      const type = types[extname(file)] ?? "application/octet-stream";
      // Text and WASM are sent gzipped to a browser that accepts them, as static hosts do.
      const gzip =
        /^(text|application\/json|application\/wasm|image\/svg)/.test(type) &&
        /\bgzip\b/.test(request.headers["accept-encoding"] ?? "");
      const csp = headers["content-security-policy"];
      response.writeHead(200, {
        "content-type": type,
        "cache-control": "no-cache",
        vary: "accept-encoding",
        ...(gzip && { "content-encoding": "gzip" }),
        ...headers,
        ...(csp &&
          type.startsWith("text/html") && {
            "content-security-policy": pagePolicy(csp, body.toString("utf8")),
          }),
      });
      response.end(gzip ? gzipOf(file, body) : body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((done) =>
    server.listen(port, "127.0.0.1", () =>
      done({ server, url: `http://127.0.0.1:${server.address().port}/` }),
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [root = "web", port = "8000"] = process.argv.slice(2);
  const { url } = await serve(root, Number(port), { "content-security-policy": policy() });
  console.log(`attention-by-hand is being served at ${url} (Ctrl+C stops it)`);
}
