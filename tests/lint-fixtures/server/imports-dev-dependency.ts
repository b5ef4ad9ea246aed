// Refused: semver is a devDependency, absent from a production install, and the server runs it.
import semver from 'semver';

export const newer = semver.gt('1.2.0', '1.1.0');
