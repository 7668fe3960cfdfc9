/**
 * The API test console: every harness test against this site, with results and a text log, Python and
 * Postman help, and an optional remembered key list (localStorage).
 */
import { useEffectEvent, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { Route } from './+types/api-test-console';
import { runTest } from '../../harness/index';
import { TEST_TYPES, type TestResult, type TestType } from '../../harness/types';
import { browserHarnessDeps, delay, RESULT_CHECK_DELAY_MS } from '../client/browser-harness';
import { loadSavedKeys, SAVED_API_KEYS_STORAGE_KEY, type SavedApiKey, saveKeys } from '../client/saved-keys';
import { CodeBlock } from '../components/ui/CodeBlock';
import { useHydrated } from '../components/ui/hydrated';
import { Tabs } from '../components/ui/Tabs';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Blog API Test Console',
    description: 'Run the blog API tests (python, dataParam, cors, postman, postmanFix, reset) against this site and read the log.',
    path: '/api/test-console',
    noindex: true,
  });

const TEST_DESCRIPTIONS: Record<TestType, string> = {
  python: 'The Python example request: JSON body, python-requests user agent.',
  dataParam: 'The two classic Python mistakes (data=post and json=json.dumps(post)): the API must refuse both with guidance.',
  cors: 'The preflight a browser on another origin sends before posting.',
  postman: "Postman with the body type left on Text: the API must refuse it and explain Body > raw > JSON.",
  postmanFix: 'Postman with Body > raw > JSON: must be accepted.',
  reset: 'Clears the stored test state (response, diagnostics, headers, request body, auth header, ...).',
};

const PYTHON_HELP = `import requests

response = requests.post(
    f"{BASE_URL}/api/blog",
    json=post,                       # a dict: not data=post, not json=json.dumps(post)
    headers={"Authorization": f"Bearer {API_KEY}"},
    timeout=30,
)
print(response.status_code, response.json())`;

const SAVED_KEYS_EVENT = 'blog-api-keys-changed';

function subscribeSavedKeys(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(SAVED_KEYS_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(SAVED_KEYS_EVENT, onChange);
  };
}

function readSavedKeysRaw(): string | null {
  try {
    return window.localStorage.getItem(SAVED_API_KEYS_STORAGE_KEY);
  } catch (error) {
    console.error('Failed to load saved API keys', error);
    return null;
  }
}

/** The remembered keys, read from localStorage after hydration (none on the server). */
function useSavedKeys(): SavedApiKey[] {
  const raw = useSyncExternalStore(subscribeSavedKeys, readSavedKeysRaw, () => null);
  return useMemo(() => (raw === null ? [] : loadSavedKeys({ getItem: () => raw })), [raw]);
}

function logLine(type: TestType, result: TestResult): string {
  const status = result.statusCode === undefined ? '' : ` [${result.statusCode}]`;
  const flags = [result.isCorsError ? 'isCorsError' : '', result.isDataParamError ? 'isDataParamError' : ''].filter(Boolean).join(' ');
  return `${result.timestamp} ${type}${status} ${result.success ? 'PASS' : 'FAIL'} ${result.message}${flags ? ` (${flags})` : ''}`;
}

export default function ApiTestConsole() {
  const formId = useId();
  const [type, setType] = useState<TestType>('python');
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [validateOnly, setValidateOnly] = useState(true);
  const saved = useSavedKeys();
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<Array<{ type: TestType; result: TestResult }>>([]);
  const [log, setLog] = useState<string[]>([]);
  const hydrated = useHydrated();

  // What the fields hold when the app hydrates is what the visitor set before it loaded (React leaves
  // a field alone when it hydrates, decision 0020): take it over, so the tests run with it.
  const form = useRef<HTMLFormElement>(null);
  const adoptFields = useEffectEvent(() => {
    const fields = form.current?.elements;
    const field = (suffix: string) => fields?.namedItem(`${formId}-${suffix}`);
    const typeField = field('type');
    const keyField = field('key');
    const rememberField = field('remember');
    const validateField = field('validate');
    if (typeField instanceof HTMLSelectElement && TEST_TYPES.some((t) => t === typeField.value)) setType(typeField.value as TestType);
    if (keyField instanceof HTMLInputElement) setApiKey(keyField.value);
    if (rememberField instanceof HTMLInputElement) setRemember(rememberField.checked);
    if (validateField instanceof HTMLInputElement) setValidateOnly(validateField.checked);
  });
  useLayoutEffect(() => adoptFields(), []);

  const persist = (keys: SavedApiKey[]) => {
    try {
      saveKeys(window.localStorage, keys);
      window.dispatchEvent(new Event(SAVED_KEYS_EVENT));
    } catch (error) {
      console.error('Failed to save API keys', error);
    }
  };

  const runTypes = async (types: readonly TestType[]) => {
    setRunning(true);
    const key = apiKey.trim();
    if (remember && key && !saved.some((s) => s.key === key)) {
      persist([...saved, { label: `Key ending ${key.slice(-4)}`, key, savedAt: new Date().toISOString() }]);
    }
    for (const t of types) {
      const result = await runTest(t, browserHarnessDeps({ ...(key ? { apiKey: key } : {}), validateOnly }));
      await delay(RESULT_CHECK_DELAY_MS);
      setResults((list) => [{ type: t, result }, ...list]);
      setLog((lines) => [...lines, logLine(t, result)]);
    }
    setRunning(false);
  };

  const helpTabs = [
    {
      id: 'python',
      label: 'Python help',
      content: (
        <div>
          <p>Send the post as a dict with <code>json=post</code>; requests then sets <code>Content-Type: application/json</code>.</p>
          <CodeBlock label="Python request" language="python" code={PYTHON_HELP} />
          <p>
            <code>data=post</code> sends form fields (415) and <code>json=json.dumps(post)</code> sends a JSON string (400):
            the <strong>dataParam</strong> test shows both answers.
          </p>
        </div>
      ),
    },
    {
      id: 'postman',
      label: 'Postman help',
      content: (
        <div>
          <ol>
            <li>Method POST, URL <code>{'{{baseUrl}}'}/api/blog</code>.</li>
            <li>Authorization tab: Bearer Token, the key alone (without the word Bearer).</li>
            <li>Body tab: raw, then JSON in the drop-down. Text sends text/plain and is refused (the <strong>postman</strong> test).</li>
          </ol>
          <p>
            Or download the ready collection from the <Link to="/api/usage-examples">usage examples</Link>.
          </p>
        </div>
      ),
    },
  ];

  return (
    <div className="page-section api-page">
      <div className="container">
        <h1>Blog API Test Console</h1>
        <p className="lead">
          Runs real requests against this site. Without a key, or with &quot;validate only&quot;, the tests use{' '}
          <code>POST /api/blog/validate</code> and nothing is saved.
        </p>
        <div className="console-grid">
          <section aria-labelledby="runner-heading">
            <h2 id="runner-heading">Run a test</h2>
            <form
              ref={form}
              className="console-form"
              onSubmit={(event) => {
                event.preventDefault();
                void runTypes([type]);
              }}
            >
              <div>
                <label htmlFor={`${formId}-type`}>Test type</label>
                <select id={`${formId}-type`} value={type} onChange={(event) => setType(event.target.value as TestType)}>
                  {TEST_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
                <p className="disclaimer">{TEST_DESCRIPTIONS[type]}</p>
              </div>
              <div>
                <label htmlFor={`${formId}-key`}>API key (optional)</label>
                <input
                  id={`${formId}-key`}
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  value={apiKey}
                  onChange={(event) => setApiKey(event.target.value)}
                  placeholder="bpk_..."
                />
              </div>
              {saved.length > 0 && (
                <div>
                  <label htmlFor={`${formId}-saved`}>Remembered keys</label>
                  <select id={`${formId}-saved`} value="" onChange={(event) => setApiKey(event.target.value)}>
                    <option value="">Choose a remembered key…</option>
                    {saved.map((s) => (
                      <option key={s.key} value={s.key}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                  <button type="button" className="button button-outline" onClick={() => persist([])}>
                    Forget remembered keys
                  </button>
                </div>
              )}
              <div className="checkbox-row">
                <input id={`${formId}-remember`} type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
                <label htmlFor={`${formId}-remember`}>Remember my key in this browser</label>
              </div>
              <div className="checkbox-row">
                <input id={`${formId}-validate`} type="checkbox" checked={validateOnly} onChange={(event) => setValidateOnly(event.target.checked)} />
                <label htmlFor={`${formId}-validate`}>Validate only (never create a post)</label>
              </div>
              <div className="button-row" style={{ justifyContent: 'flex-start' }}>
                {/* The tests run in the page: until the app has loaded, the buttons wait for it. */}
                <button type="submit" className="button button-primary" disabled={running || !hydrated}>
                  {running ? 'Running…' : 'Run test'}
                </button>
                <button type="button" className="button button-outline" disabled={running || !hydrated} onClick={() => void runTypes(TEST_TYPES.filter((t) => t !== 'reset'))}>
                  Run all tests
                </button>
              </div>
            </form>
          </section>
          <section aria-labelledby="help-heading">
            <h2 id="help-heading">Help</h2>
            <Tabs tabs={helpTabs} label="Client help" defaultTabId="python" />
          </section>
        </div>

        <section aria-labelledby="results-heading">
          <h2 id="results-heading">Results</h2>
          {results.length === 0 ? (
            <p>No tests run yet.</p>
          ) : (
            <ul className="console-results" data-testid="console-results" aria-live="polite">
              {results.map(({ type: t, result }) => (
                <li key={`${t}-${result.timestamp}`} data-success={result.success ? 'true' : 'false'} data-test-type={t}>
                  <strong>
                    {t}: {result.success ? 'passed' : 'failed'}
                  </strong>{' '}
                  {result.message}
                  {!result.success && result.detailed_instructions && (
                    <ul>
                      {result.detailed_instructions.map((step) => (
                        <li key={step}>{step}</li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
          <h3>Log</h3>
          <CodeBlock label="Test log" code={log.length > 0 ? log.join('\n') : '(empty)'} />
        </section>
      </div>
    </div>
  );
}
