// postinstall: when `npm ci` ran on an older system Node.js, says which Node.js the project
// runs on: `npm ci` installs Node.js 24 (the `node` devDependency) and `npm run` / `npm exec`
// put it first on PATH. The lockfile carries no engines requirement that only the older system
// Node.js fails (scripts/lockfile-engines.mjs), so npm prints no EBADENGINE warning about it;
// docs/decisions/014-newcomer-first-minutes.md and 019-suite-health.md.
const installer = /\bnode\/v(\d+)\.\S*/.exec(process.env.npm_config_user_agent ?? '');
const installerMajor = installer ? Number(installer[1]) : null;
// This script itself runs on the installed Node.js: npm put node_modules/.bin first on PATH.
if (installerMajor !== null && installerMajor < 22) {
  console.log(
    [
      '',
      `Installed Node.js ${process.versions.node} in node_modules (the \`node\` devDependency); \`npm run\` and \`npm exec\` use it.`,
      `npm itself ran on the system Node.js ${installer[0].slice(5)}; nothing of this project runs on it.`,
      '',
    ].join('\n'),
  );
}
