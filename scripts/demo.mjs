// `npm run demo`: build when the sources are newer than the build, then serve the demo
// (SQLite in ./data, the demo inventory loaded into an empty database). Says what it is doing
// at each step: the first run builds (about a minute) and draws 53 cars' photos (about half a
// minute), and silence that long reads like a hang.
import { build, buildIsStale, buildTime, builtServer } from './build-if-stale.mjs';

if (buildIsStale()) {
  console.log(`demo: step 1 of 2: building the app (${buildTime() ? 'the sources changed since the last build' : 'first run'}; about a minute)…`);
  build();
} else {
  console.log('demo: step 1 of 2: the build is up to date');
}

process.env.APP_MODE ??= 'demo';
// Payments go through the demo's own Razorpay sandbox (decision 095), unless Razorpay keys are given
// (PAYMENTS= empty turns it off); the server refuses the sandbox in production.
if (process.env.APP_MODE !== 'production' && !process.env.RAZORPAY_KEY_ID && !process.env.RAZORPAY_KEY_SECRET) process.env.PAYMENTS ??= 'sandbox';
console.log(
  `demo: step 2 of 2: starting the server (${process.env.DATABASE_URL ? 'PostgreSQL' : `SQLite in ${process.env.DATA_DIR ?? './data'}`}); it says where to open the site when it is ready…`,
);
// React's production build: the demo should be as fast as the real thing.
process.env.NODE_ENV ??= 'production';
const { startServer } = await import(builtServer);
await startServer(process.env);
