// The floor for the SSR benchmark: node:http answering every request with the same bytes
// the app sent for that page (already compressed when the app compressed them), with the same
// content type and encoding. Usage: bare-server.mjs FILE TYPE [ENCODING]
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [file, contentType, contentEncoding] = process.argv.slice(2);
const body = readFileSync(file);
const headers = {
  'content-type': contentType,
  'content-length': body.length,
  ...(contentEncoding ? { 'content-encoding': contentEncoding, vary: 'Accept-Encoding' } : {}),
};
const server = http.createServer((_request, response) => {
  response.writeHead(200, headers);
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
