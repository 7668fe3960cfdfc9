import { Download } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Route } from './+types/api-usage-examples';
import { runTest } from '../../harness/index';
import type { TestResult } from '../../harness/types';
import { browserHarnessDeps, delay, RESULT_CHECK_DELAY_MS } from '../client/browser-harness';
import { TestResultBanner } from '../components/api/TestResultBanner';
import { useSiteConfig } from '../components/layout/site-config-context';
import { CodeBlock } from '../components/ui/CodeBlock';
import { Tabs } from '../components/ui/Tabs';
import { ToastRegion, useToasts } from '../components/ui/Toast';
import {
  COMMON_ERRORS,
  OTHER_ERRORS,
  EXAMPLE_TABS,
  POSTMAN_STEPS,
  REQUIREMENTS,
  RESPONSE_SAMPLE,
  withOrigin,
} from '../content/api-examples';
import { configFromMatches, pageMeta } from '../seo/meta';
import postmanCollectionUrl from '../../docs/examples/blog-api.postman_collection.json?url';
import curlExample from '../../docs/examples/create-post.sh?raw';
import jsExample from '../../docs/examples/create-post.mjs?raw';
import pythonExample from '../../docs/examples/create_post.py?raw';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Blog API Usage Examples',
    description: 'Publish blog posts through the blog API: requirements, Python, cURL, Postman and JavaScript examples, answers and errors.',
    path: '/api/usage-examples',
  });

const EXAMPLE_CODE = { python: pythonExample, curl: curlExample, js: jsExample } as const;

function debugText(result: TestResult): string {
  return result.probes
    .map((probe) => {
      const lines = [`${probe.name}`, `> ${probe.request.method} ${probe.request.url}`];
      for (const [name, value] of Object.entries(probe.request.headers)) {
        lines.push(`> ${name}: ${name.toLowerCase() === 'authorization' ? 'Bearer (hidden)' : value}`);
      }
      if (probe.response) {
        lines.push(`< ${probe.response.status}`);
        for (const [name, value] of Object.entries(probe.response.headers)) lines.push(`< ${name}: ${value}`);
        lines.push('', probe.response.body);
      } else lines.push(`! ${probe.error ?? 'no response'}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

function PythonTest({ onResult }: { onResult: (result: TestResult | null) => void }) {
  const [running, setRunning] = useState(false);
  const [debug, setDebug] = useState('');
  const { toasts, show } = useToasts();

  const run = async () => {
    setRunning(true);
    onResult(null);
    try {
      const result = await runTest('python', browserHarnessDeps());
      await delay(RESULT_CHECK_DELAY_MS);
      setDebug(debugText(result));
      onResult(result);
      if (result.success) show('success', 'Python request simulation successful');
      else show('error', `Python request simulation failed: ${result.message}`);
    } catch (error) {
      show('error', `Error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="python-test">
      <p>
        Sends the exact request of the Python example (a python-requests user agent and a JSON body) to{' '}
        <code>POST /api/blog/validate</code>, which runs every check of a real create and saves nothing.
      </p>
      <button type="button" className="button button-primary" onClick={() => void run()} disabled={running} aria-busy={running}>
        {running ? 'Testing…' : 'Test Python Request'}
      </button>
      <h3 className="debug-heading">Debug output</h3>
      <CodeBlock label="Debug output of the Python test" code={debug || 'Run the test to see the request and the answer here.'} />
      <ToastRegion toasts={toasts} />
    </div>
  );
}

export default function ApiUsageExamples() {
  const config = useSiteConfig();
  const [result, setResult] = useState<TestResult | null>(null);
  const origin = config.siteUrl;

  const tabs = EXAMPLE_TABS.map((tab) => ({
    id: tab.id,
    label: tab.label,
    content: (
      <div className="example-panel">
        <p>{tab.intro}</p>
        {tab.id === 'postman' ? (
          <>
            <ol>
              {POSTMAN_STEPS.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            <a className="button button-outline" href={postmanCollectionUrl} download="blog-api.postman_collection.json">
              <Download aria-hidden="true" size={18} /> Download the Postman collection (v2.1)
            </a>
          </>
        ) : (
          <CodeBlock label={`${tab.label} example`} language={tab.id} code={withOrigin(EXAMPLE_CODE[tab.id], origin)} />
        )}
        {tab.id === 'python' && <PythonTest onResult={setResult} />}
      </div>
    ),
  }));

  return (
    <div className="page-section api-page">
      <div className="container">
        <h1>Blog API Usage Examples</h1>
        <p className="lead">
          Authors and integrators publish articles to our blog with <code>POST {origin}/api/blog</code>. Everything you
          need is on this page; the examples are the same files our own tests run.
        </p>
        <TestResultBanner result={result} />

        <section aria-labelledby="requirements-heading">
          <h2 id="requirements-heading">Requirements</h2>
          <div className="table-scroll" role="region" aria-label="Requirements table" tabIndex={0}>
            <table>
              <caption className="visually-hidden">What every request needs</caption>
              <thead>
                <tr>
                  <th scope="col">Requirement</th>
                  <th scope="col">Value</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {REQUIREMENTS.map((row) => (
                  <tr key={row.item}>
                    <th scope="row">{row.item}</th>
                    <td>
                      <code>{row.requirement}</code>
                    </td>
                    <td>{row.detail}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            Need a key? See <Link to="/admin/api-keys">how API keys are generated</Link>. Want to try every test type?
            Open the <Link to="/api/test-console">API test console</Link>.
          </p>
        </section>

        <section aria-labelledby="examples-heading">
          <h2 id="examples-heading">Examples</h2>
          <Tabs tabs={tabs} label="Example language" defaultTabId="python" />
        </section>

        <section aria-labelledby="response-heading">
          <h2 id="response-heading">Response Format</h2>
          <p>
            A created post answers <strong>201 Created</strong> with a <code>Location</code> header and this body. Sending the
            same <code>Idempotency-Key</code> again returns the same answer and creates nothing.
          </p>
          <CodeBlock label="Response format" language="json" code={JSON.stringify(RESPONSE_SAMPLE, null, 2)} />
        </section>

        <section aria-labelledby="errors-heading">
          <h2 id="errors-heading">Common Errors</h2>
          <p>
            Errors are JSON too: <code>success: false</code>, a <code>message</code>, a stable <code>code</code> and{' '}
            <code>guidance</code> written for the client you use (Python, Postman, curl, ...).
          </p>
          <div className="table-scroll" role="region" aria-label="Common errors table" tabIndex={0}>
            <table data-testid="common-errors">
              <caption className="visually-hidden">Error statuses and what to do</caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Meaning</th>
                  <th scope="col">What to do</th>
                </tr>
              </thead>
              <tbody>
                {COMMON_ERRORS.map((row) => (
                  <tr key={row.code} id={`error-${row.code}`}>
                    <th scope="row">{row.status}</th>
                    <td>
                      {row.meaning} <code>{row.code}</code>
                    </td>
                    <td>
                      {row.guidance}
                      {row.python && <span className="python-hint"> Python: {row.python}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3 id="error-codes-heading">Every other error code</h3>
          <p>
            Every error body also carries <code>request_id</code> (quote it when you ask for help; it is the{' '}
            <code>X-Request-Id</code> header too) and the RFC 9457 fields <code>type</code>, <code>title</code>,{' '}
            <code>status</code>, <code>detail</code> and <code>instance</code>; <code>type</code> links the error&apos;s entry on this page.
          </p>
          <ul aria-labelledby="error-codes-heading">
            {OTHER_ERRORS.map((row) => (
              <li key={row.code} id={`error-${row.code}`}>
                <code>{row.code}</code> ({row.status}, {row.meaning}): {row.guidance}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
