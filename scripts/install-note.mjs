// postinstall: explains npm's EBADENGINE warnings when `npm ci` ran on an older system Node.js.
// npm checks every package's `engines` against the Node.js that runs npm itself (v20 on Debian
// 12), although the packages never run on it: `npm ci` installs Node.js 24 (the `node`
// devDependency) and `npm run` / `npm exec` put it first on PATH. npm has no setting to check
// against another version, and hiding warnings (loglevel) would hide real ones too, so the
// warnings stay and this says what they mean (docs/decisions/014-newcomer-first-minutes.md).
const installer = /\bnode\/v(\d+)\.\S*/.exec(process.env.npm_config_user_agent ?? '');
const installerMajor = installer ? Number(installer[1]) : null;
// This script itself runs on the installed Node.js: npm put node_modules/.bin first on PATH.
if (installerMajor !== null && installerMajor < 22) {
  console.log(
    [
      '',
      `Installed Node.js ${process.versions.node} in node_modules (the \`node\` devDependency); \`npm run\` and \`npm exec\` use it.`,
      `The EBADENGINE warnings above compare the packages with the system Node.js ${installer[0].slice(5)} that ran npm; nothing runs on it. They are expected.`,
      '',
    ].join('\n'),
  );
}
