import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childEnvironment } from '../../server/upstream/transport.js';

test(
  "a power's server gets PATH and the like from the gateway, none of the gateway's credentials, " +
    "and its spell's env as written (a Postgres server's own PGPASSWORD included)",
  (t) => {
    const saved = { GRIMOIRE_ADMIN_TOKEN: process.env.GRIMOIRE_ADMIN_TOKEN, PGPASSWORD: process.env.PGPASSWORD };
    process.env.GRIMOIRE_ADMIN_TOKEN = 'gateway-admin-token-' + 'a'.repeat(32);
    process.env.PGPASSWORD = 'gateway-pg-password';
    t.after(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    const inherited = childEnvironment({});
    assert.equal(inherited.PATH, process.env.PATH);
    assert.equal(inherited.GRIMOIRE_ADMIN_TOKEN, undefined);
    assert.equal(inherited.PGPASSWORD, undefined);

    const written = childEnvironment({ PGPASSWORD: 'the-spells-own', PGHOST: 'db.internal', PATH: '/opt/db/bin' });
    assert.deepEqual(
      [written.PGPASSWORD, written.PGHOST, written.PATH],
      ['the-spells-own', 'db.internal', '/opt/db/bin'],
    );
  },
);
