import { deletedRows, type PersonalData } from '../privacy/personal-data.ts';

/** better-auth's tables (server/auth/auth.ts): it owns them, we say what they hold about a person. */
export const authPersonalData: PersonalData[] = [
  {
    table: 'user',
    personal: {
      id: 'the account id',
      email: 'the sign-in email',
      emailVerified: 'whether they proved it is theirs',
      name: 'the name given at sign-up',
      image: "the Google picture's address",
    },
    foundBy: 'id',
    // The account section also lists the sign-in methods (the account table).
    export: {
      section: 'account',
      gather: async ({ database, userId }) => {
        const user = await database.db
          .selectFrom('user')
          .select(['id', 'email', 'name', 'emailVerified', 'createdAt'])
          .where('id', '=', userId)
          .executeTakeFirst();
        const methods = await database.db.selectFrom('account').select('providerId').where('userId', '=', userId).execute();
        if (!user) return null;
        return {
          id: user.id,
          email: user.email,
          name: user.name,
          emailVerified: Boolean(user.emailVerified),
          createdAt: new Date(user.createdAt).toISOString(),
          signInMethods: methods.map((method) => (method.providerId === 'credential' ? 'password' : method.providerId)),
        };
      },
    },
    // Last of all (erasure runs the declarations in reverse): everything else names this row.
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('user').where('id', '=', person.userId).execute() },
  },
  {
    table: 'account',
    personal: {
      userId: 'the account it signs in to',
      accountId: "Google's id of the person (or the user id for a password)",
      password: 'the password hash',
      accessToken: "Google's token",
      refreshToken: "Google's token",
      idToken: "Google's signed statement of who the person is",
    },
    notPersonal: { accessTokenExpiresAt: "when Google's token lapses", refreshTokenExpiresAt: "when Google's token lapses" },
    foundBy: 'userId',
    export: { within: 'account' },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('account').where('userId', '=', person.userId).execute() },
  },
  {
    table: 'session',
    personal: { userId: 'whose session', token: 'the session secret', ipAddress: 'where it signed in from', userAgent: 'the browser or phone' },
    foundBy: 'userId',
    export: { omitted: 'secrets and device details, listed on /profile/devices' },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('session').where('userId', '=', person.userId).execute() },
    retention: 'until it expires',
    // better-auth stores its dates as ISO text on SQLite and as timestamptz on PostgreSQL; an ISO string compares correctly with both.
    purge: {
      report: 'sessions',
      run: async ({ database }, now) => deletedRows(await database.db.deleteFrom('session').where('expiresAt', '<', now.toISOString()).executeTakeFirst()),
    },
  },
  {
    table: 'verification',
    personal: { identifier: 'the email or token a pending check is for', value: "a pending token's data, naming the user id" },
    foundBy: 'the user id inside the value',
    export: { omitted: 'short-lived secrets' },
    // Pending tokens name the person by id: as the whole value (password reset) or inside the
    // JSON of an account-linking state. Ids are UUIDs, so the substring cannot hit another's.
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('verification').where('value', 'like', `%${person.userId}%`).execute() },
    retention: 'until it expires',
    purge: {
      report: 'verifications',
      run: async ({ database }, now) => deletedRows(await database.db.deleteFrom('verification').where('expiresAt', '<', now.toISOString()).executeTakeFirst()),
    },
  },
  {
    table: 'rateLimit',
    personal: { key: "the client's address and the path it called" },
    foundBy: 'not at all: keyed by address, not by account',
    export: { omitted: 'not tied to the account' },
    erase: { action: 'keep', reason: 'not tied to the account; better-auth drops each counter when its window ends' },
  },
];
