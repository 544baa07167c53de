import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseConnectionError, describePostgresTarget, migrateToLatest, openDatabase } from './database';

describe('a PostgreSQL that cannot be used at start-up (docs/adr/0019-postgresql.md)', () => {
  // Port 1 of this machine: nothing listens there, so the connection is refused at once.
  const db = openDatabase({ kind: 'postgres', url: 'postgres://aqa:s3cret@127.0.0.1:1/anybodyqa' });
  afterAll(() => db.destroy());

  it('is one sentence naming DATABASE_URL, the host, port and database, and the reason, never the password', async () => {
    const failure = await migrateToLatest(db).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseConnectionError);
    const { message } = failure as DatabaseConnectionError;
    expect(message).toBe(
      'Cannot connect to the PostgreSQL database of DATABASE_URL (127.0.0.1:1/anybodyqa): connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(message).not.toContain('s3cret');
  });

  it('names a socket directory or the default port when the URL gives them so', () => {
    expect(describePostgresTarget('postgres:///aqa?host=/run/postgresql')).toBe('/run/postgresql:5432/aqa');
    expect(describePostgresTarget('postgresql://u:p@db.internal/aqa')).toBe('db.internal:5432/aqa');
  });
});
