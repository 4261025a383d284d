/** A small sequential test runner for the extension host (no test framework is loaded there). */

export interface TestCase {
  name: string;
  timeoutMs: number;
  run: () => Promise<void>;
}

const cases: TestCase[] = [];

export function test(name: string, run: () => Promise<void>, timeoutMs = 60_000): void {
  cases.push({ name, run, timeoutMs });
}

function withTimeout(work: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer)).catch((error: Error) => {
    throw Object.assign(error, { message: `${name}: ${error.message}` });
  });
}

/**
 * Runs the registered cases in order; a failure is reported and the next case still runs.
 * GRIMOIRE_TEST_GREP (a regular expression) runs only the matching cases, while developing.
 */
export async function runAll(log: (line: string) => void): Promise<{ passed: number; failed: number }> {
  let passed = 0;
  let failed = 0;
  const grep = process.env.GRIMOIRE_TEST_GREP ? new RegExp(process.env.GRIMOIRE_TEST_GREP) : undefined;
  const selected = grep ? cases.filter((testCase) => grep.test(testCase.name)) : cases;
  for (const testCase of selected) {
    const started = Date.now();
    try {
      await withTimeout(testCase.run(), testCase.timeoutMs, testCase.name);
      passed += 1;
      log(`ok ${passed + failed} - ${testCase.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      log(`not ok ${passed + failed} - ${testCase.name} (${Date.now() - started} ms)\n  ${(error as Error).stack ?? String(error)}`);
    }
  }
  log(`1..${selected.length}\n# pass ${passed}\n# fail ${failed}`);
  return { passed, failed };
}

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
