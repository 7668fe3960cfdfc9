/**
 * runTest(type, deps): the one entry of the harness, used by the API examples page (browser fetch +
 * localStorage) and by the CLI (undici + a state file). Every test is a real HTTP probe.
 */
import { checkApiKey } from '../contract/keys';
import { HarnessContext } from './context';
import { clearState } from './state';
import { corsTest } from './checks/cors';
import { dataParamTest } from './checks/data-param';
import { postmanFixTest, postmanTest } from './checks/postman';
import { pythonTest } from './checks/python';
import { type HarnessDeps, isTestType, TEST_TYPES, type TestResult, type TestType } from './types';

const TESTS: Record<TestType, (h: HarnessContext) => Promise<TestResult>> = {
  python: pythonTest,
  dataParam: dataParamTest,
  cors: corsTest,
  postman: postmanTest,
  postmanFix: postmanFixTest,
  reset: async (h) => {
    const cleared = clearState(h.deps.state);
    return h.pass(cleared.length > 0 ? `Test state cleared (${cleared.length} stored values removed).` : 'Test state cleared (nothing was stored).');
  },
};

export async function runTest(type: string, deps: HarnessDeps): Promise<TestResult> {
  const h = new HarnessContext(deps);
  if (!isTestType(type)) {
    return h.fail(`Unknown test type: ${type}`, { detailed_instructions: [`Valid test types: ${TEST_TYPES.join(', ')}.`] });
  }
  if (deps.apiKey !== undefined && type !== 'reset') {
    const key = checkApiKey(deps.apiKey);
    if (!key.ok) {
      return h.fail(`Error running ${type} test: ${key.message}`, {
        detailed_instructions: ['Copy the key again in full from where it was first shown, or create a new one (blogpost keys create).'],
      });
    }
  }
  try {
    return await TESTS[type](h);
  } catch (error) {
    return h.fail(`Error running ${type} test: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export { TEST_TYPES, isTestType };
export type { HarnessDeps, TestResult, TestType };
