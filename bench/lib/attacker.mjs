/* global fetch, FormData -- Node's own web globals; nothing to import them from */
/**
 * The attackers of bench/attack.mjs, in a process of their own:
 *
 *   node bench/lib/attacker.mjs <server url> <'image bombs' | 'largest allowed photos' | 'none'> <attackers> <'bodies' | 'no bodies'> <row>
 *
 * Solves a bot check per image submission first (each from its own address), prints
 * "attacking", then keeps <attackers> image submissions and (with 'bodies') <attackers>
 * oversize bodies in flight until a line arrives on stdin, and prints what it was answered as
 * JSON.
 */
import { Buffer, File } from 'node:buffer';
import http from 'node:http';
import { URL } from 'node:url';
import { solveAltchaChallenge } from '../../app/lib/bot-check-client.ts';
import { blackPng } from '../../tests/support/png.ts';

const MiB = 1024 * 1024;

const PAYLOADS = {
  'image bombs': { size: [7700, 7700], count: 10, tokens: 40 },
  'largest allowed photos': { size: [4000, 3000], count: 10, tokens: 8 },
};

// Each row's attackers come from addresses of their own (the sell form's limit is per address).
const row = Number(process.argv[6] ?? 0);
let addressCounter = 0;
const freshAddress = () => `10.${100 + row}.${(addressCounter >> 8) & 255}.${addressCounter++ & 255}`;

/** Solved bot checks for the sell form, each with the address it was solved from. */
async function solveTokens(url, count) {
  const tokens = [];
  for (let index = 0; index < count; index++) {
    const address = freshAddress();
    const response = await fetch(`${url}/api/bot-check/challenge?action=SELL_FORM`, { headers: { 'x-forwarded-for': address, accept: 'application/json' } });
    if (!response.ok) throw new Error(`bot-check challenge: HTTP ${response.status}`);
    tokens.push({ address, token: await solveAltchaChallenge(await response.json()) });
  }
  return tokens;
}

/** One sell submission with the payload's photos; resolves to the HTTP status. */
async function submitPhotos(url, payload, token) {
  const form = new FormData();
  const fields = { name: 'Bench Attacker', phone: '+91 99887 76655', vehicle: 'Hyundai i20 Asta', year: '2018', price: '4,50,000', description: 'bench' };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('botCheck', token.token);
  for (let index = 0; index < payload.count; index++) form.append('images', new File([payload.file], `p${index}.png`, { type: 'image/png' }));
  const response = await fetch(`${url}/sell-vehicle`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { origin: url, 'x-forwarded-for': token.address },
  });
  await response.arrayBuffer();
  return response.status;
}

/** A 64 MiB body, declared or chunked, written until the server answers; resolves to the status (0: connection closed first). */
function oversizeBody(url, pagePath, chunked, address) {
  const { hostname, port } = new URL(url);
  const multipart = pagePath.startsWith('/sell');
  const headers = {
    'content-type': multipart ? 'multipart/form-data; boundary=----bench' : 'application/x-www-form-urlencoded',
    origin: url,
    'x-forwarded-for': address,
  };
  const prefix = Buffer.from(multipart ? '------bench\r\nContent-Disposition: form-data; name="description"\r\n\r\n' : 'intent=email&email=');
  const size = 64 * MiB;
  if (!chunked) headers['content-length'] = String(prefix.length + size);
  return new Promise((resolve) => {
    let answered = false;
    const request = http.request({ host: hostname, port, path: pagePath, method: 'POST', headers, agent: false }, (response) => {
      answered = true;
      response.resume();
      response.on('end', () => {
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    request.on('error', () => {
      if (!answered) resolve(0);
    });
    const filler = Buffer.alloc(MiB, 0x61);
    let sent = 0;
    request.write(prefix);
    const write = () => {
      while (!answered && sent < size) {
        sent += MiB;
        if (!request.write(filler)) return void request.once('drain', write);
      }
      if (!answered) request.end();
    };
    write();
  });
}

const [url, name, attackerCount, bodies] = process.argv.slice(2);
const attackers = Number(attackerCount);
const chosen = name === 'none' ? null : PAYLOADS[name];
if (chosen === undefined) throw new Error(`unknown attack ${name}`);
const payload = chosen ? { file: blackPng(...chosen.size), count: chosen.count } : null;
// Enough solved bot checks for the attackers never to run dry during the measurement.
const tokens = chosen ? await solveTokens(url, attackers * chosen.tokens) : [];
const bodyAttackers = bodies === 'bodies' ? attackers : 0;

const attack = { submissions: {}, oversize: {} };
const count = (bucket, status) => (bucket[status] = (bucket[status] ?? 0) + 1);
let stop = false;
process.stdin.once('data', () => (stop = true));
const oversizeAddress = freshAddress();
const kinds = [
  ['/sell-vehicle', false],
  ['/sell-vehicle.data', true],
  ['/login.data', false],
  ['/login', true],
];
console.log('attacking');
await Promise.all([
  ...Array.from({ length: payload ? attackers : 0 }, async () => {
    while (!stop) {
      const token = tokens.shift();
      if (!token) break;
      count(attack.submissions, await submitPhotos(url, payload, token).catch(() => 'error'));
    }
  }),
  ...Array.from({ length: bodyAttackers }, async (_, index) => {
    for (let round = index; !stop; round++) {
      const [pagePath, chunked] = kinds[round % kinds.length];
      count(attack.oversize, await oversizeBody(url, pagePath, chunked, oversizeAddress));
    }
  }),
]);
console.log(JSON.stringify(attack));
process.exit(0);
