/**
 * /get-quote (SPEC "Quote page"): the title, the phone number and, on the first screen even of a
 * phone, the site's own quote-request form (it posts to this page: the action below stores it and answers a 303 to the
 * thank-you page with the request's reference, or this page again with the problems, or with everything typed kept and the phone
 * number when the request could not be stored just now; the same form sent twice is one request,
 * decision 0018); then the optional "pick a time" step, the
 * booking form behind a facade with a phone fallback beside it, the intro video (facade), what the
 * illustration includes, a few questions, and the Service JSON-LD with a free Offer. Nothing from the
 * video host or the booking provider is requested until the visitor asks for it. Copy comes from
 * web/content/get-quote.ts and web/content/quote-request-form.ts.
 */
import { BadgeCheck, Check, Clock, Mail, Phone } from 'lucide-react';
import { data, redirect } from 'react-router';
import type { Route } from './+types/get-quote';
import { parseFormToken, thankYouPath } from '../../contract/quote-intent';
import { QUOTE_FORM_CONTROLS } from '../../contract/quote-request';
import { QuoteRequestForm, type QuoteActionData } from '../components/quote/QuoteRequestForm';
import { quoteRequestFormCopy } from '../content/quote-request-form';
import { useSiteConfig } from '../components/layout/site-config-context';
import { Accordion } from '../components/ui/Accordion';
import { BookingFormEmbed } from '../components/ui/BookingFormEmbed';
import { VideoFacade } from '../components/ui/VideoFacade';
import { BOOKING_FRAME_SIZE, BOOKING_LOAD_TIMEOUT_MS, quoteContent, quoteServiceJsonLd } from '../content/get-quote';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  const content = quoteContent(config);
  return pageMeta(config, {
    title: content.seo.title,
    description: content.seo.description,
    path: '/get-quote',
    jsonLd: [quoteServiceJsonLd(config, content)],
  });
};

/**
 * Every render carries its time (for the form's minimum fill time) and a one-time token (decision
 * 0018), so no shared cache and not the server's page cache may keep it (`private`), and every visit
 * asks for it again (`no-cache`: a new render has a new ETag, so a new token). Unlike `no-store`, the
 * browser may show its own copy again on Back, token and all, so sending that form again names the
 * request already stored instead of making a second one.
 */
const ONE_VISITORS_PAGE = 'private, no-cache';

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': ONE_VISITORS_PAGE });
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};

export function loader({ context }: Route.LoaderArgs) {
  return data({ startedAt: Date.now(), formToken: context.quotes.newFormToken() }, { headers: { 'Cache-Control': ONE_VISITORS_PAGE } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const outcome = await context.quotes.submit({ form, client: context.client, page: '/get-quote' });
  if (outcome.kind === 'received') return redirect(thankYouPath(outcome.reference), 303);
  const copy = quoteRequestFormCopy(context.config);
  const consent = form.get('consent') === 'yes';
  // Nothing was stored: the form shown again keeps its token, so it is still one request however often it is sent.
  const formToken = parseFormToken(form.get(QUOTE_FORM_CONTROLS.formToken));
  if (outcome.kind === 'invalid') return data<QuoteActionData>({ values: outcome.values, consent, problems: outcome.problems, notice: null, formToken }, { status: 400 });
  // Stored (aside, as too quick; or before, with other answers): the form shown again is a new request, with the page's new token.
  if (outcome.kind === 'too_fast') return data<QuoteActionData>({ values: outcome.values, consent, problems: {}, notice: copy.tooFast, formToken: null }, { status: 400 });
  if (outcome.kind === 'already_sent') {
    return data<QuoteActionData>({ values: outcome.values, consent, problems: {}, notice: copy.alreadySent(outcome.reference, context.config.phoneDisplay), formToken: null }, { status: 409 });
  }
  // Not stored (the database is restarting): the form again with everything typed, the phone, and a 503 (decision 0017).
  if (outcome.kind === 'unavailable') {
    return data<QuoteActionData>(
      { values: outcome.values, consent, problems: {}, notice: copy.unavailable(context.config.phoneDisplay), formToken },
      { status: outcome.status, headers: { 'Retry-After': String(outcome.retryAfterSeconds) } },
    );
  }
  const minutes = Math.max(1, Math.ceil(outcome.retryAfterSeconds / 60));
  return data<QuoteActionData>(
    { values: outcome.values, consent, problems: {}, notice: copy.rateLimited(minutes, context.config.phoneDisplay), formToken },
    { status: 429, headers: { 'Retry-After': String(outcome.retryAfterSeconds) } },
  );
}

export default function GetQuotePage({ loaderData, actionData }: Route.ComponentProps) {
  const config = useSiteConfig();
  const content = quoteContent(config);
  const requestCopy = quoteRequestFormCopy(config);
  const { hero, video, form, phone, inclusions, faqs } = content;
  const telHref = `tel:${config.phoneE164}`;
  const mailHref = `mailto:${config.email}`;

  return (
    <>
      <section className="quote-hero" aria-labelledby="quote-title">
        <div className="container quote-hero-grid">
          <div className="quote-intro">
            <p className="eyebrow">{hero.eyebrow}</p>
            <h1 id="quote-title">{hero.heading}</h1>
            <p className="quote-free-badge" data-testid="quote-free-badge">
              <BadgeCheck aria-hidden="true" size={20} /> {hero.freeBadge}
            </p>
            {/* Above the form, so that a phone shows the number on its first screen too. */}
            <p className="quote-phone-line quote-intro-phone" data-testid="quote-intro-phone">
              <Phone aria-hidden="true" size={20} /> {phone.prompt} <a href={telHref} className="phone-number">{config.phoneDisplay}</a>
            </p>
          </div>
          <div className="card quote-request" id="request">
            <QuoteRequestForm copy={requestCopy} startedAt={loaderData.startedAt} formToken={loaderData.formToken} result={actionData} />
          </div>
          <div className="quote-hero-more">
            <p className="lead">{hero.lead}</p>
            <ul className="quote-highlights">
              {hero.highlights.map((item) => (
                <li key={item}>
                  <Check aria-hidden="true" size={18} /> {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section id="schedule" className="page-section section-alt" aria-labelledby="quote-form-heading">
        <div className="container">
          <h2 id="quote-form-heading">{form.heading}</h2>
        </div>
        {/* The phone comes first in the document so that on a phone it sits above the 800px form;
            on wider screens it stands in the column beside it. */}
        <div className="container quote-form-grid">
          <div className="card quote-phone" data-testid="quote-phone-fallback">
            <p className="quote-phone-line">
              <Phone aria-hidden="true" size={20} /> {phone.prompt} <a href={telHref} className="phone-number">{config.phoneDisplay}</a>
            </p>
            <p>{phone.text}</p>
            <p className="quote-phone-hours">
              <Clock aria-hidden="true" size={18} /> {config.officeHours}. {config.weekendNote}.
            </p>
            <p>
              <a href={mailHref}>
                <Mail aria-hidden="true" size={18} /> {config.email}
              </a>
            </p>
          </div>
          <div className="quote-form-main">
            <BookingFormEmbed
              formUrl={config.bookingFormUrl}
              scriptUrl={config.bookingScriptUrl}
              frameTitle={form.frameTitle}
              frameSize={BOOKING_FRAME_SIZE}
              openLabel={form.openLabel}
              openNote={form.privacyNote}
              loadingMessage={form.loadingMessage}
              fallbackHeading={form.fallbackHeading}
              loadTimeoutMs={BOOKING_LOAD_TIMEOUT_MS}
              fallback={
                <>
                  <p>{form.fallbackText}</p>
                  <ul className="quote-contact-links">
                    <li>
                      <a href={telHref} data-testid="booking-fallback-phone">
                        <Phone aria-hidden="true" size={18} /> Call <span className="phone-number">{config.phoneDisplay}</span>
                      </a>
                    </li>
                    <li>
                      <a href={mailHref} data-testid="booking-fallback-email">
                        <Mail aria-hidden="true" size={18} /> Email {config.email}
                      </a>
                    </li>
                  </ul>
                </>
              }
            >
              <p>{form.intro}</p>
              <h3>{form.stepsHeading}</h3>
              <ol className="quote-form-steps" data-testid="quote-form-steps">
                {form.steps.map((step) => (
                  <li key={step.id}>
                    <strong>{step.title}.</strong> {step.text}
                  </li>
                ))}
              </ol>
            </BookingFormEmbed>
          </div>
        </div>
      </section>

      <section className="page-section" aria-labelledby="quote-video-heading">
        <div className="container quote-video">
          <h2 id="quote-video-heading" className="quote-video-heading">
            {video.heading}
          </h2>
          <VideoFacade host={config.videoHost} videoId={config.quoteVideoId} title={video.title} orientation="landscape" poster="illustration" />
          <p className="quote-video-caption">{video.caption}</p>
        </div>
      </section>

      <section className="page-section section-alt" aria-labelledby="quote-inclusions-heading">
        <div className="container">
          <h2 id="quote-inclusions-heading">{inclusions.heading}</h2>
          <p className="lead">{inclusions.intro}</p>
          <ul className="card-grid quote-inclusions">
            {inclusions.items.map((item) => (
              <li key={item.id} className="card" data-testid="quote-inclusion">
                <h3>{item.title}</h3>
                <p>{item.text}</p>
              </li>
            ))}
          </ul>
          <p className="quote-projection-note" data-testid="quote-projection-note">
            {inclusions.projectionNote}
          </p>
        </div>
      </section>

      <section className="page-section section-alt" aria-labelledby="quote-faq-heading">
        <div className="container quote-faq">
          <h2 id="quote-faq-heading">{faqs.heading}</h2>
          <Accordion
            items={faqs.items.map((faq) => ({ id: faq.id, title: faq.question, content: <p>{faq.answer}</p> }))}
            headingLevel={3}
          />
        </div>
      </section>

      <div className="container">
        <p className="disclaimer quote-disclaimer">{content.disclaimer}</p>
      </div>
    </>
  );
}
