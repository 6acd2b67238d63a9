// A tiny dependency-free static file server for www/, used by scripts/serve.sh and the e2e test.
// It sends the strict Content-Security-Policy the page must work under (wasm needs only
// 'wasm-unsafe-eval', never 'unsafe-eval') and disables caching so a rebuild is always seen.
//
//   node tests/e2e/server.mjs --root www --port 8000 [--host 127.0.0.1] [--quiet]
//   import { startServer } from './server.mjs';
//   const { server, url } = await startServer({ root, port: 0 });   // port 0: ephemeral

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  'frame-ancestors *',
].join('; ');

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8', // covers .d.ts
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
};

function mimeType(file) {
  return MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function isInside(root, candidate) {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function sendText(res, status, text, method) {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(method === 'HEAD' ? undefined : text);
}

async function handle(root, req, res, csp = CONTENT_SECURITY_POLICY) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendText(res, 405, 'method not allowed\n', req.method);
  }

  // Refuse any request whose raw path has a '..' segment, plain or percent-encoded, before URL
  // parsing would quietly normalize it away; then check the resolved path, and its real path
  // through symlinks, are inside the root.
  let rawPath;
  let pathname;
  try {
    rawPath = decodeURIComponent((req.url ?? '/').split(/[?#]/, 1)[0]);
    pathname = decodeURIComponent(new URL('http://localhost' + (req.url ?? '/')).pathname);
  } catch {
    return sendText(res, 400, 'bad request\n', req.method);
  }
  if (rawPath.includes('\0') || pathname.includes('\0')) {
    return sendText(res, 400, 'bad request\n', req.method);
  }
  const hasDotDot = (p) => p.split(/[\\/]/).includes('..');
  if (hasDotDot(rawPath) || hasDotDot(pathname)) {
    return sendText(res, 403, 'forbidden\n', req.method);
  }
  let file = path.resolve(root, '.' + pathname);
  if (!isInside(root, file)) {
    return sendText(res, 403, 'forbidden\n', req.method);
  }

  let info;
  try {
    info = await stat(file);
    if (info.isDirectory()) {
      if (!pathname.endsWith('/')) {
        // Redirect so relative URLs in the directory's index.html resolve correctly.
        const location = '/' + pathname.replace(/^\/+/, '') + '/'; // never a protocol-relative '//host'
        res.writeHead(301, { Location: location, 'Cache-Control': 'no-store' });
        return res.end();
      }
      file = path.join(file, 'index.html');
      info = await stat(file);
    }
    if (!info.isFile()) {
      return sendText(res, 404, 'not found\n', req.method);
    }
    if (!isInside(root, await realpath(file))) {
      return sendText(res, 403, 'forbidden\n', req.method);
    }
  } catch {
    return sendText(res, 404, 'not found\n', req.method);
  }

  res.writeHead(200, {
    'Content-Type': mimeType(file),
    'Content-Length': info.size,
    'Content-Security-Policy': csp,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    return res.end();
  }
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/**
 * Serve `root` over HTTP. Resolves to `{ server, url }` once listening; `port: 0` picks a free
 * port; `csp` replaces the page's policy on files served (the element's tests serve a host page
 * that refuses wasm). Close with `server.close()`.
 */
export async function startServer({ root, port = 0, host = '127.0.0.1', csp = CONTENT_SECURITY_POLICY } = {}) {
  if (!root) {
    throw new Error('startServer: root is required');
  }
  const realRoot = await realpath(path.resolve(root));
  const server = createServer((req, res) => {
    handle(realRoot, req, res, csp).catch((err) => {
      console.error('server.mjs:', err);
      if (!res.headersSent) {
        sendText(res, 500, 'internal server error\n', req.method);
      } else {
        res.destroy();
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, url: `http://${urlHost}:${address.port}/` };
}

function parseArgs(argv) {
  const options = { root: '.', port: 8000, host: '127.0.0.1', quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) throw new Error(`${name} needs a value`);
      return argv[++i];
    };
    switch (name) {
      case '--root':
        options.root = value();
        break;
      case '--port': {
        const raw = value();
        const port = Number(raw);
        if (!/^\d+$/.test(raw) || port > 65535) throw new Error(`--port must be 0-65535, got '${raw}'`);
        options.port = port;
        break;
      }
      case '--host':
        options.host = value();
        break;
      case '--quiet':
        options.quiet = true;
        break;
      case '-h':
      case '--help':
        console.log('usage: node server.mjs [--root DIR] [--port N] [--host ADDR] [--quiet]');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument: ${arg}`);
    }
  }
  return options;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`server.mjs: ${err.message}`);
    process.exit(2);
  }
  try {
    const { server, url } = await startServer(options);
    if (!options.quiet) {
      console.log(`Serving ${path.resolve(options.root)} at ${url}`);
    }
    const stop = () => {
      server.close(() => process.exit(0));
      server.closeAllConnections(); // do not wait for browsers' keep-alive connections
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (err) {
    console.error(`server.mjs: ${err.message}`);
    process.exit(1);
  }
}
