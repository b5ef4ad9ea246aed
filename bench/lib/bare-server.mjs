// The floor for the SSR benchmark: node:http answering every request with the same bytes
// the app sent for that page, with the same content type. Usage: bare-server.mjs FILE TYPE
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [file, contentType] = process.argv.slice(2);
const body = readFileSync(file);
const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
