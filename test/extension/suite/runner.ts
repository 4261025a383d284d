/** A small sequential test runner for the extension host (no test framework is loaded there). */

/** What a test may do besides asserting: stop and say why it cannot run here (counted as skipped, never as passed). */
export interface TestContext {
  skip(reason: string): never;
}

export interface TestCase {
  name: string;
  timeoutMs: number;
  run: (t: TestContext) => Promise<void>;
}

class Skipped extends Error {}

const context: TestContext = {
  skip(reason: string): never {
    throw new Skipped(reason);
  },
};

const cases: TestCase[] = [];

export function test(name: string, run: (t: TestContext) => Promise<void>, timeoutMs = 60_000): void {
  cases.push({ name, run, timeoutMs });
}

function withTimeout(work: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout])
    .finally(() => clearTimeout(timer))
    .catch((error: Error) => {
      throw error instanceof Skipped ? error : Object.assign(error, { message: `${name}: ${error.message}` });
    });
}

/**
 * Runs the registered cases in order; a failure is reported and the next case still runs.
 * GRIMOIRE_TEST_GREP (a regular expression) runs only the matching cases, while developing.
 */
export async function runAll(
  log: (line: string) => void,
): Promise<{ passed: number; failed: number; skipped: number }> {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const grep = process.env.GRIMOIRE_TEST_GREP ? new RegExp(process.env.GRIMOIRE_TEST_GREP) : undefined;
  const selected = grep ? cases.filter((testCase) => grep.test(testCase.name)) : cases;
  for (const testCase of selected) {
    const started = Date.now();
    const n = () => passed + failed + skipped;
    try {
      await withTimeout(testCase.run(context), testCase.timeoutMs, testCase.name);
      passed += 1;
      log(`ok ${n()} - ${testCase.name} (${Date.now() - started} ms)`);
    } catch (error) {
      if (error instanceof Skipped) {
        skipped += 1;
        log(`ok ${n()} - ${testCase.name} # SKIP ${error.message}`);
        continue;
      }
      failed += 1;
      log(
        `not ok ${n()} - ${testCase.name} (${Date.now() - started} ms)\n  ${(error as Error).stack ?? String(error)}`,
      );
    }
  }
  log(`1..${selected.length}\n# pass ${passed}\n# skip ${skipped}\n# fail ${failed}`);
  return { passed, failed, skipped };
}

export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
