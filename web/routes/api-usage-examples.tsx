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
  CONFLICT_ANSWERS,
  OPENAPI_DOCUMENT_PATH,
  OTHER_ERRORS,
  COVER_POST_SAMPLE,
  EXAMPLE_TABS,
  IMAGE_ERRORS,
  IMAGE_EXAMPLE_LANGUAGES,
  IMAGE_PROCESSING_NOTE,
  IMAGE_UPLOAD_STEPS,
  MEDIA_RESPONSE_SAMPLE,
  PATCH_MERGE_RULES,
  POST_OPERATIONS,
  POSTMAN_STEPS,
  REQUIREMENTS,
  RESPONSE_SAMPLE,
  UPDATE_EXAMPLE_LANGUAGES,
  UPDATE_FLOW,
  withOrigin,
} from '../content/api-examples';
import { ACCEPT_NOTE, ACCEPT_SAMPLE, COMPLIANCE_INTRO, COMPLIANCE_MODE_ROWS, FINDING_SAMPLE } from '../content/compliance-findings';
import { configFromMatches, pageMeta } from '../seo/meta';
import postmanCollectionUrl from '../../docs/examples/blog-api.postman_collection.json?url';
import curlExample from '../../docs/examples/create-post.sh?raw';
import jsExample from '../../docs/examples/create-post.mjs?raw';
import pythonExample from '../../docs/examples/create_post.py?raw';
import deleteCurlExample from '../../docs/examples/delete-post.sh?raw';
import updateCurlExample from '../../docs/examples/update-post.sh?raw';
import updateJsExample from '../../docs/examples/update-post.mjs?raw';
import updatePythonExample from '../../docs/examples/update_post.py?raw';
import uploadCurlExample from '../../docs/examples/upload-image.sh?raw';
import uploadJsExample from '../../docs/examples/upload-image.mjs?raw';
import uploadPythonExample from '../../docs/examples/upload_image.py?raw';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Blog API Usage Examples',
    description: 'Publish and correct blog posts through the blog API: Python, cURL, Postman and JavaScript examples, updates with ETags, answers and errors.',
    path: '/api/usage-examples',
  });

const EXAMPLE_CODE = { python: pythonExample, curl: curlExample, js: jsExample } as const;
const UPDATE_EXAMPLE_CODE = { python: updatePythonExample, curl: updateCurlExample, js: updateJsExample } as const;
const IMAGE_EXAMPLE_CODE = { python: uploadPythonExample, curl: uploadCurlExample, js: uploadJsExample } as const;

/** The "Upload an image" section: the steps, the three tested examples, the answer, a post with a cover, the errors. */
function ImageUploadSection({ origin }: { origin: string }) {
  return (
    <section className="lazy-section" aria-labelledby="images-heading" data-testid="image-upload">
      <h2 id="images-heading">Upload an image</h2>
      <p>
        Pictures are uploaded first with <code>POST {origin}/api/media</code>, then named in the post: their <code>url</code> in the
        content, their <code>id</code> as the <code>cover_image</code>.
      </p>
      <ol>
        {IMAGE_UPLOAD_STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p>{IMAGE_PROCESSING_NOTE}</p>
      <h3 id="image-examples-heading">Image examples</h3>
      <p>Each uploads the picture given as its argument, then creates a draft that shows it and has it as its cover.</p>
      {IMAGE_EXAMPLE_LANGUAGES.map((language) => (
        <details key={language.id} className="example-disclosure" open={language.id === 'python'}>
          <summary>
            {language.label}: <code>{language.file}</code>
          </summary>
          <CodeBlock label={`${language.label} image example`} language={language.id} code={withOrigin(IMAGE_EXAMPLE_CODE[language.id], origin)} />
        </details>
      ))}
      <p>
        In the Postman collection above, &quot;Upload an image&quot; (Body: form-data, key <code>file</code>, type File) saves the
        id in <code>mediaId</code>, and &quot;Create a post with a cover image&quot; sends it.
      </p>
      <h3 id="media-answer-heading">The answer</h3>
      <CodeBlock label="Image upload answer" language="json" code={JSON.stringify(MEDIA_RESPONSE_SAMPLE, null, 2)} />
      <h3 id="cover-post-heading">A post with a cover image</h3>
      <CodeBlock label="Post with a cover image" language="json" code={JSON.stringify(COVER_POST_SAMPLE, null, 2)} />
      <h3 id="image-errors-heading">When an image is refused</h3>
      <ul aria-labelledby="image-errors-heading">
        {IMAGE_ERRORS.map((error) => (
          <li key={error.code}>
            <a href={`#error-${error.code}`}>
              {error.status} <code>{error.code}</code>
            </a>
            : {error.meaning}
          </li>
        ))}
      </ul>
      <p>
        <code>GET /api/media</code> lists your images with the posts that show each; <code>DELETE /api/media/:id</code> removes
        one no post shows (a 409 names the posts that still do).
      </p>
    </section>
  );
}

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
          Authors and integrators publish articles to our blog with <code>POST {origin}/api/blog</code>, and correct them
          with <code>PATCH</code>. Everything you need is on this page; the examples are the same files our own tests run.
        </p>
        <TestResultBanner result={result} />

        <section aria-labelledby="requirements-heading">
          <h2 id="requirements-heading">Requirements</h2>
          <div className="table-scroll requirements-table" role="region" aria-label="Requirements table" tabIndex={0}>
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

        <section aria-labelledby="compliance-heading" data-testid="compliance-findings">
          <h2 id="compliance-heading">Compliance findings</h2>
          <p>{COMPLIANCE_INTRO}</p>
          <h3 id="compliance-modes-heading">What the site&apos;s COMPLIANCE_MODE does with a high finding</h3>
          <dl aria-labelledby="compliance-modes-heading">
            {COMPLIANCE_MODE_ROWS.map((row) => (
              <div key={row.mode}>
                <dt>
                  <code>{row.mode}</code>
                </dt>
                <dd>{row.effect}</dd>
              </div>
            ))}
          </dl>
          <h3 id="finding-sample-heading">One finding, as the API answers it</h3>
          {FINDING_SAMPLE ? <CodeBlock label="Compliance finding" language="json" code={JSON.stringify(FINDING_SAMPLE, null, 2)} /> : null}
          <h3 id="accept-heading">Accepting a finding</h3>
          <p>{ACCEPT_NOTE}</p>
          <CodeBlock label="Accepting a finding" language="json" code={JSON.stringify(ACCEPT_SAMPLE, null, 2)} />
        </section>

        <ImageUploadSection origin={origin} />

        <section className="lazy-section" aria-labelledby="changing-heading">
          <h2 id="changing-heading">Changing a published post</h2>
          <p>
            Every post keeps its <code>id</code> (from the create&apos;s answer) and an <code>ETag</code> that names its current
            version. A change says which version it changes, so two people never overwrite each other without noticing:
          </p>
          <ol>
            {UPDATE_FLOW.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <h3 id="merge-rules-heading">How PATCH merges</h3>
          <ul aria-labelledby="merge-rules-heading">
            {PATCH_MERGE_RULES.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
          <h3 id="conflicts-heading">When a change is refused: 428 and 412</h3>
          <dl className="conflict-answers">
            {CONFLICT_ANSWERS.map((answer) => (
              <div key={answer.code}>
                <dt>
                  <a href={`#error-${answer.code}`}>
                    {answer.status} <code>{answer.code}</code>
                  </a>
                </dt>
                <dd>{answer.meaning}</dd>
              </div>
            ))}
          </dl>
          <h3 id="update-examples-heading">Update examples</h3>
          <p>
            Each reads the post&apos;s ETag, sends a PATCH with <code>If-Match</code>, and on a 412 prints what changed and exits
            with 1. Pass the ETag of your own earlier read as the second argument: a change made since to other fields is kept
            and yours applied on top; one to the excerpt or the tags stops the update with the fields that changed.
          </p>
          {UPDATE_EXAMPLE_LANGUAGES.map((language) => (
            <details key={language.id} className="example-disclosure" open={language.id === 'python'}>
              <summary>
                {language.label}: <code>{language.file}</code>
              </summary>
              <CodeBlock label={`${language.label} update example`} language={language.id} code={withOrigin(UPDATE_EXAMPLE_CODE[language.id], origin)} />
            </details>
          ))}
          <details className="example-disclosure">
            <summary>
              Delete and restore with cURL: <code>delete-post.sh</code>
            </summary>
            <CodeBlock label="cURL delete and restore example" language="curl" code={withOrigin(deleteCurlExample, origin)} />
          </details>
          <p>The Postman collection above has the same steps: Get blog post saves the ETag, Update blog post (PATCH) sends it.</p>
          <h3 id="operations-heading">Operations on a post</h3>
          <div className="table-scroll" role="region" aria-label="Operations on a post" tabIndex={0}>
            <table data-testid="post-operations">
              <caption className="visually-hidden">Methods, paths, the permission each needs and what it does</caption>
              <thead>
                <tr>
                  <th scope="col">Method</th>
                  <th scope="col">Path</th>
                  <th scope="col">Permission</th>
                  <th scope="col">What it does</th>
                </tr>
              </thead>
              <tbody>
                {POST_OPERATIONS.map((operation) => (
                  <tr key={`${operation.method} ${operation.path}`}>
                    <th scope="row">{operation.method}</th>
                    <td>
                      <code>{operation.path}</code>
                    </td>
                    <td>{operation.permission}</td>
                    <td>{operation.does}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            A key with <code>blog:write</code> changes the posts of its owner; <code>blog:admin</code> changes any post (anyone
            else gets <a href="#error-not_post_owner">403 <code>not_post_owner</code></a>). Scheduled posts take{' '}
            <code>status: scheduled</code> and a <code>publish_at</code> with an offset, e.g. <code>2026-12-01T09:00:00-05:00</code>.
          </p>
          <p>
            <a href={OPENAPI_DOCUMENT_PATH}>OpenAPI 3.1 document</a>: import it in Postman or generate a client.
          </p>
        </section>

        <section className="lazy-section" aria-labelledby="errors-heading">
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
