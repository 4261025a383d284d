/**
 * One real PostgreSQL cluster for the tests of a file: started before them (unless PostgreSQL cannot
 * run here: `skip` says why, for the tests' `skip` option), then `setUp` on it; after them
 * `tearDown` (what uses the cluster, closed first), then the cluster stopped even if that failed.
 */
import { after, before } from 'node:test';
import { pgUnavailable, startPgCluster, type PgCluster } from './postgres.js';

export interface TestCluster {
  readonly skip: string | undefined;
  /** The running cluster; throws when it was not started (a test not skipped with `skip`). */
  readonly cluster: PgCluster;
}

export function useTestCluster(
  hooks: { setUp?(cluster: PgCluster): Promise<void>; tearDown?(): Promise<void> | void } = {},
): TestCluster {
  const skip = pgUnavailable();
  let cluster: PgCluster | undefined;
  before(async () => {
    if (skip) return;
    cluster = await startPgCluster();
    await hooks.setUp?.(cluster);
  });
  after(async () => {
    try {
      await hooks.tearDown?.();
    } finally {
      // The cluster is a daemon of its own: a hook that stopped short would leave it running.
      cluster?.stop();
    }
  });
  return {
    skip,
    get cluster() {
      if (!cluster) throw new Error(`no PostgreSQL cluster was started${skip ? `: ${skip}` : ''}`);
      return cluster;
    },
  };
}
