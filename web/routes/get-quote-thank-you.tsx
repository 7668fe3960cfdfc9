/**
 * /get-quote/thank-you: where a quote request lands once it is stored (the form's 303). Says that it
 * arrived, what happens next and when, and offers the phone and the scheduling form for sooner. It
 * shows none of the visitor's details, and is kept out of search results.
 */
import { Phone } from 'lucide-react';
import { Link } from 'react-router';
import type { Route } from './+types/get-quote-thank-you';
import { useSiteConfig } from '../components/layout/site-config-context';
import { quoteThankYouCopy } from '../content/quote-request-form';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  const copy = quoteThankYouCopy(config);
  return pageMeta(config, { title: copy.title, description: copy.description, path: '/get-quote/thank-you', noindex: true });
};

export default function QuoteThankYou() {
  const config = useSiteConfig();
  const copy = quoteThankYouCopy(config);
  return (
    <article className="page-section narrow prose quote-thanks" aria-labelledby="thanks-title" data-testid="quote-thank-you">
      <h1 id="thanks-title">{copy.heading}</h1>
      <p className="lead">{copy.lead}</p>
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
        <a className="button button-primary" href={`tel:${config.phoneE164}`}>
          <Phone aria-hidden="true" size={18} /> Call <span className="phone-number">{config.phoneDisplay}</span>
        </a>
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
