/**
 * IndieAuth's authorization codes in the database (decision 0030): a row per code under its SHA-256,
 * taken by one DELETE ... RETURNING, so of two exchanges of one code (on one server or two) only one
 * gets the grant. Expired rows go at every take.
 */
import type { IndieAuthCodeRepository, IndieAuthGrant } from '../store';
import type { SqlDatabase } from './database';

export class SqlIndieAuthCodeRepository implements IndieAuthCodeRepository {
  readonly #database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  async add(codeSha256: string, grant: IndieAuthGrant, expiresAtMs: number): Promise<void> {
    await this.#database.write('store an IndieAuth authorization code', (tx) =>
      tx.insertInto('indieauth_codes').values({ code_sha256: codeSha256, record: JSON.stringify(grant), expires_at_ms: expiresAtMs }).execute(),
    );
  }

  async take(codeSha256: string, nowMs: number): Promise<IndieAuthGrant | null> {
    return this.#database.write('exchange an IndieAuth authorization code', async (tx) => {
      await tx.deleteFrom('indieauth_codes').where('expires_at_ms', '<=', nowMs).execute();
      const row = await tx.deleteFrom('indieauth_codes').where('code_sha256', '=', codeSha256).returning('record').executeTakeFirst();
      return row ? (JSON.parse(row.record) as IndieAuthGrant) : null;
    });
  }
}
