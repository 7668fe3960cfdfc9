/**
 * /stop-contacting-me?t=<token>: where the "stop contacting me" link of every e-mail to a visitor
 * leads. Opening it changes nothing (mail scanners open links); it says what the button does, and the
 * button (a plain form POST, no JavaScript needed) records the visitor's wish on their request at once:
 * no more automatic e-mails to that address, and staff see it on the lead. A link whose signature does
 * not check out (mistyped, forged) gets a 400 that says what to do instead. Never cached, never indexed.
 */
import { data, Form } from 'react-router';
import type { Route } from './+types/stop-contacting-me';
import { useSiteConfig } from '../components/layout/site-config-context';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Stop contacting me',
    description: 'Ask the agency to stop contacting you about your quote request.',
    path: '/stop-contacting-me',
    noindex: true,
  });

const NEVER_KEPT = { 'Cache-Control': 'no-store' } as const;

export const headers: Route.HeadersFunction = () => NEVER_KEPT;

type StopState = { kind: 'invalid' } | { kind: 'ask'; token: string } | { kind: 'done'; at: string; before: boolean };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('t') ?? '';
  const status = await context.quotes.optOutStatus(token);
  if (status.kind === 'invalid') return data<StopState>({ kind: 'invalid' }, { status: 400, headers: NEVER_KEPT });
  if (status.alreadyAt) return data<StopState>({ kind: 'done', at: status.alreadyAt, before: true }, { headers: NEVER_KEPT });
  return data<StopState>({ kind: 'ask', token }, { headers: NEVER_KEPT });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = form.get('t');
  const status = await context.quotes.optOut(typeof token === 'string' ? token : '', context.client);
  if (status.kind === 'invalid' || !status.alreadyAt) return data<StopState>({ kind: 'invalid' }, { status: 400, headers: NEVER_KEPT });
  return data<StopState>({ kind: 'done', at: status.alreadyAt, before: false }, { headers: NEVER_KEPT });
}

function day(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

export default function StopContactingMe({ loaderData, actionData }: Route.ComponentProps) {
  const config = useSiteConfig();
  const state: StopState = actionData ?? loaderData;
  return (
    <article className="page-section narrow prose" aria-labelledby="stop-title" data-testid="stop-contacting-me">
      <h1 id="stop-title">Stop contacting me</h1>
      {state.kind === 'invalid' ? (
        <>
          <p data-testid="stop-invalid">
            This link is not complete or not valid, so nothing was changed. Open the link from the e-mail again (copy the whole address if it was cut), or call{' '}
            <a href={`tel:${config.phoneE164}`}>{config.phoneDisplay}</a> ({config.officeHours}) and ask us to stop contacting you.
          </p>
        </>
      ) : state.kind === 'ask' ? (
        <>
          <p>
            Press the button to ask {config.agencyName} to stop contacting you about your quote request. It takes effect at once: this website sends no more e-mails to your address, and our
            staff see your wish on your request.
          </p>
          <Form method="post">
            <input type="hidden" name="t" value={state.token} />
            <button type="submit" className="button button-primary">
              Stop contacting me
            </button>
          </Form>
          <p>Nothing changes until you press it. To change your mind later, call {config.phoneDisplay}.</p>
        </>
      ) : (
        <p role="status" data-testid="stop-done">
          {`${state.before ? 'You asked us' : 'Done: you asked us'} to stop contacting you on ${day(state.at)}. This website sends no more e-mails to your address, and our staff see your wish on your request. To change your mind, call ${config.phoneDisplay}.`}
        </p>
      )}
    </article>
  );
}
