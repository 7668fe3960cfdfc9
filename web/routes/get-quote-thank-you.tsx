/**
 * /get-quote/thank-you: where a quote request lands once it is stored (the form's 303 names its
 * reference, `?ref=`). For a stored request it says that it arrived, shows its reference, what happens
 * next and when, and offers the phone and the scheduling form for sooner. Opened without a reference,
 * or with one no stored request has (made up, or a request since deleted), it says that nothing was sent
 * from here and offers the form and the phone instead (decision 0018). It shows none of the visitor's
 * details, is never cached, and is kept out of search results.
 */
import { Phone } from 'lucide-react';
import { data, Link } from 'react-router';
import type { Route } from './+types/get-quote-thank-you';
import { useSiteConfig } from '../components/layout/site-config-context';
import { quoteNothingSentCopy, quoteThankYouCopy } from '../content/quote-request-form';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches, data: loaded }) => {
  const config = configFromMatches(matches);
  const copy = loaded?.receipt ? quoteThankYouCopy(config) : quoteNothingSentCopy(config);
  return pageMeta(config, { title: copy.title, description: copy.description, path: '/get-quote/thank-you', noindex: true });
};

/** Whether a request was stored is this visitor's answer alone: never kept by any cache. */
const NEVER_KEPT = { 'Cache-Control': 'no-store' } as const;

export const headers: Route.HeadersFunction = () => NEVER_KEPT;

export async function loader({ request, context }: Route.LoaderArgs) {
  const reference = new URL(request.url).searchParams.get('ref');
  const receipt = reference ? await context.quotes.receipt(reference) : null;
  return data({ receipt }, { headers: NEVER_KEPT });
}

function CallButton() {
  const config = useSiteConfig();
  return (
    <a className="button button-primary" href={`tel:${config.phoneE164}`}>
      <Phone aria-hidden="true" size={18} /> Call <span className="phone-number">{config.phoneDisplay}</span>
    </a>
  );
}

function NothingSent() {
  const config = useSiteConfig();
  const copy = quoteNothingSentCopy(config);
  return (
    <article className="page-section narrow prose quote-thanks" aria-labelledby="thanks-title" data-testid="quote-nothing-sent">
      <h1 id="thanks-title">{copy.heading}</h1>
      <p className="lead">{copy.lead}</p>
      <p>{copy.sentText}</p>
      <h2>{copy.requestHeading}</h2>
      <p>{copy.requestText}</p>
      <p className="button-row">
        <Link className="button button-primary" to="/get-quote#request">
          {copy.formLink}
        </Link>
        <CallButton />
      </p>
      <p className="quote-phone-hours">
        {config.officeHours}. {config.weekendNote}.
      </p>
      <p className="disclaimer">{copy.disclaimer}</p>
    </article>
  );
}

export default function QuoteThankYou({ loaderData }: Route.ComponentProps) {
  const config = useSiteConfig();
  const { receipt } = loaderData;
  if (!receipt) return <NothingSent />;
  const copy = quoteThankYouCopy(config);
  return (
    <article className="page-section narrow prose quote-thanks" aria-labelledby="thanks-title" data-testid="quote-thank-you">
      <h1 id="thanks-title">{copy.heading}</h1>
      <p className="lead">{copy.lead}</p>
      <p className="quote-reference" data-testid="quote-reference">
        {copy.referenceLabel} <strong>{receipt.reference}</strong>. {copy.referenceNote}
      </p>
      <h2>{copy.nextHeading}</h2>
      <ol>
        {copy.steps.map((step) => (
          <li key={step.id}>
            <strong>{step.title}.</strong> {step.text}
          </li>
        ))}
      </ol>
      <h2>{copy.soonerHeading}</h2>
      <p>{copy.soonerText}</p>
      <p className="button-row">
        <CallButton />
        <Link className="button button-outline" to="/get-quote#schedule">
          {copy.scheduleLink}
        </Link>
      </p>
      <p>
        <Link to="/">{copy.backLink}</Link>
      </p>
      <p className="disclaimer">{copy.disclaimer}</p>
    </article>
  );
}
