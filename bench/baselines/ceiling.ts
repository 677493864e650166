import { createServer } from 'node:http';
import { listenOptions, loadCatalog } from './catalog.js';

/*
 * The ceiling: node:http writing bytes serialised once at start. No framework, no auth, no
 * database; nothing a real service could do per request costs less.
 */
const body = Buffer.from(JSON.stringify(loadCatalog()));
const headers = {
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(body.length),
};

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/v1/inventory') {
    res.writeHead(200, headers);
    res.end(body);
    return;
  }
  res.writeHead(404).end();
});
server.keepAliveTimeout = 65_000;
const { port, host } = listenOptions();
server.listen(port, host);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
