// `npm run worker`: runs queued jobs (mail, SMS, scheduled work) in a process of its own, beside
// app instances started with WORKER=off (docs/decisions/069). Build first with `npm run build`.
process.env.NODE_ENV ??= 'production';
const { startWorkerProcess } = await import('./build/server/index.js');

await startWorkerProcess(process.env);
