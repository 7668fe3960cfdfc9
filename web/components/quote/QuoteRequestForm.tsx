/**
 * The quote-request form of /get-quote. Without JavaScript it is a plain form that posts to the page
 * (the route's action answers a 303 to the thank-you page, or the page again with every value kept,
 * an error summary linked to each field, and aria-invalid/aria-describedby on the fields). With
 * JavaScript the contract's own checks run as the visitor leaves each field and before sending, and
 * the form is sent without reloading the page. Short fields first; the rest in an optional group.
 */
import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import {
  checkQuoteRequest,
  CONSENT_VERSION,
  HEALTH_RATING_LABELS,
  HEALTH_RATINGS,
  QUOTE_FIELDS,
  QUOTE_FORM_CONTROLS,
  QUOTE_LIMITS,
  type QuoteField,
  type QuoteFormValues,
} from '../../../contract/quote-request';
import { QUOTE_FORM_ACTION } from '../../../contract/quote-intent';
import type { QuoteRequestFormCopy } from '../../content/quote-request-form';

export type QuoteProblems = Partial<Record<QuoteField, string>>;

/** What the page's action gives back when it did not take the request. */
export interface QuoteActionData {
  values: QuoteFormValues;
  consent: boolean;
  problems: QuoteProblems;
  /** A message about the whole request (sent too quickly, too many from one address, sent before). */
  notice: string | null;
  /** The token the form shown again carries: the one it was sent with when nothing was stored, else null (the page's new one). */
  formToken: string | null;
}

interface Props {
  copy: QuoteRequestFormCopy;
  /** When the page was rendered (ms), posted back for the minimum fill time. */
  startedAt: number;
  /** This render's one-time token, posted back: one request however often the form is sent (decision 0018). */
  formToken: string;
  result: QuoteActionData | undefined;
}

const inputId = (field: QuoteField) => `quote-${field}`;
const errorId = (field: QuoteField) => `quote-${field}-error`;
const hintId = (field: QuoteField) => `quote-${field}-hint`;

function valuesOf(form: HTMLFormElement): QuoteFormValues {
  const data = new FormData(form);
  const values: QuoteFormValues = {};
  for (const field of QUOTE_FIELDS) {
    const value = data.get(field);
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

/** The first field with a problem that has its own input (the radio groups name their first option). */
function focusTarget(field: QuoteField): string {
  return field === 'preferredContactMethod' ? 'quote-preferredContactMethod-phone' : field === 'tobaccoUser' ? 'quote-tobaccoUser' : inputId(field);
}

export function QuoteRequestForm({ copy, startedAt, formToken, result }: Props) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formAction?.startsWith('/get-quote') === true;
  const [problems, setProblems] = useState<QuoteProblems>(result?.problems ?? {});
  const [touched, setTouched] = useState<ReadonlySet<QuoteField>>(new Set());
  const summaryRef = useRef<HTMLDivElement>(null);
  const values = result?.values ?? {};

  // A refused request (from the server, or stopped here) shows its summary and moves focus to it.
  useEffect(() => {
    if (!result) return;
    setProblems(result.problems);
    summaryRef.current?.focus();
  }, [result]);

  /**
   * Checks the form again: `fields` get their message as it is now; `settled` keep theirs only while it
   * still holds (e-mail and phone once the contact choice changes: "add a phone number" is wrong once
   * the visitor chose e-mail); every other field keeps what it shows.
   */
  const recheck = (form: HTMLFormElement, fields: ReadonlySet<QuoteField>, settled: readonly QuoteField[] = []) => {
    const checked = checkQuoteRequest(valuesOf(form));
    const found: QuoteProblems = checked.ok ? {} : checked.problems;
    setProblems((current) => {
      const next: QuoteProblems = {};
      for (const field of QUOTE_FIELDS) {
        const message = fields.has(field) ? found[field] : settled.includes(field) && !found[field] ? undefined : current[field];
        if (message) next[field] = message;
      }
      return next;
    });
  };

  const fieldOf = (target: EventTarget): QuoteField | null => {
    const name = (target as HTMLInputElement).name;
    return (QUOTE_FIELDS as readonly string[]).includes(name) ? (name as QuoteField) : null;
  };

  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const field = fieldOf(event.target);
    if (!field) return;
    // Only the field left is checked: leaving the contact choice does not ask for an e-mail address
    // or a phone number the visitor has not reached yet (a message appearing there would also move
    // the consent box below under a finger on its way to it).
    const nextTouched = new Set(touched).add(field);
    setTouched(nextTouched);
    recheck(event.currentTarget, nextTouched);
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const field = fieldOf(event.target);
    // Fixing a field clears its message as soon as it is right (and the contact choice re-decides
    // whether e-mail or phone is needed); a new message waits for the visitor to leave the field.
    if (field === 'preferredContactMethod') recheck(event.currentTarget, new Set(touched).add(field), ['email', 'phone']);
    else if (field && problems[field]) recheck(event.currentTarget, new Set(touched).add(field));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const checked = checkQuoteRequest(valuesOf(event.currentTarget));
    if (checked.ok) return;
    event.preventDefault();
    setTouched(new Set(QUOTE_FIELDS));
    setProblems(checked.problems);
    requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const listed = QUOTE_FIELDS.filter((field) => problems[field]);
  const notice = result?.notice ?? null;
  const showSummary = listed.length > 0 || notice !== null;

  const describedBy = (field: QuoteField) =>
    [copy.fields[field].hint ? hintId(field) : null, problems[field] ? errorId(field) : null].filter(Boolean).join(' ') || undefined;

  const invalid = (field: QuoteField) => (problems[field] ? true : undefined);

  const label = (field: QuoteField, required: boolean): ReactNode => (
    <label htmlFor={inputId(field)}>
      {copy.fields[field].label}
      {required ? <span className="field-required"> (required)</span> : null}
    </label>
  );

  const hint = (field: QuoteField) =>
    copy.fields[field].hint ? (
      <p id={hintId(field)} className="field-hint">
        {copy.fields[field].hint}
      </p>
    ) : null;

  const error = (field: QuoteField) =>
    problems[field] ? (
      <p id={errorId(field)} className="field-error">
        <span className="visually-hidden">Error: </span>
        {problems[field]}
      </p>
    ) : null;

  const method = values.preferredContactMethod === 'email' ? 'email' : 'phone';

  return (
    <Form method="post" action={QUOTE_FORM_ACTION} noValidate className="quote-request-form" aria-labelledby="quote-request-heading" onSubmit={onSubmit} onBlur={onBlur} onChange={onChange} data-testid="quote-request-form">
      <h2 id="quote-request-heading">{copy.heading}</h2>
      <p className="quote-request-intro">{copy.intro}</p>

      {showSummary ? (
        <div className="error-summary" role="alert" tabIndex={-1} ref={summaryRef} aria-labelledby="quote-summary-heading" data-testid="quote-error-summary">
          <h3 id="quote-summary-heading">{copy.summaryHeading}</h3>
          {notice ? <p>{notice}</p> : null}
          {listed.length > 0 ? (
            <ul>
              {listed.map((field) => (
                <li key={field}>
                  <a href={`#${focusTarget(field)}`}>{problems[field]}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <input type="hidden" name={QUOTE_FORM_CONTROLS.startedAt} value={String(startedAt)} />
      <input type="hidden" name={QUOTE_FORM_CONTROLS.formToken} value={result?.formToken ?? formToken} />
      <input type="hidden" name={QUOTE_FORM_CONTROLS.consentVersion} value={CONSENT_VERSION} />
      <div className="quote-honeypot" aria-hidden="true">
        <label htmlFor="quote-website">{copy.honeypotLabel}</label>
        <input id="quote-website" type="text" name={QUOTE_FORM_CONTROLS.honeypot} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>

      <div className={`form-field${problems.name ? ' has-error' : ''}`}>
        {label('name', true)}
        {error('name')}
        <input id={inputId('name')} name="name" type="text" autoComplete="name" required maxLength={QUOTE_LIMITS.name} defaultValue={values.name} aria-invalid={invalid('name')} aria-describedby={describedBy('name')} />
      </div>

      <fieldset className={`form-field form-choices${problems.preferredContactMethod ? ' has-error' : ''}`} aria-describedby={problems.preferredContactMethod ? errorId('preferredContactMethod') : undefined}>
        <legend>{copy.contactLegend}</legend>
        {error('preferredContactMethod')}
        <div className="choice-row">
          {(['phone', 'email'] as const).map((option) => (
            <label key={option} className="choice" htmlFor={`quote-preferredContactMethod-${option}`}>
              <input id={`quote-preferredContactMethod-${option}`} type="radio" name="preferredContactMethod" value={option} defaultChecked={method === option} />
              {copy.contactOptions[option]}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="form-row">
        <div className={`form-field${problems.phone ? ' has-error' : ''}`}>
          {label('phone', false)}
          {hint('phone')}
          {error('phone')}
          <input id={inputId('phone')} name="phone" type="tel" autoComplete="tel" inputMode="tel" maxLength={QUOTE_LIMITS.phone} defaultValue={values.phone} aria-invalid={invalid('phone')} aria-describedby={describedBy('phone')} />
        </div>
        <div className={`form-field${problems.email ? ' has-error' : ''}`}>
          {label('email', false)}
          {hint('email')}
          {error('email')}
          <input id={inputId('email')} name="email" type="email" autoComplete="email" inputMode="email" spellCheck={false} maxLength={QUOTE_LIMITS.email} defaultValue={values.email} aria-invalid={invalid('email')} aria-describedby={describedBy('email')} />
        </div>
      </div>

      <div className="form-row">
        <div className={`form-field form-field-short${problems.age ? ' has-error' : ''}`}>
          {label('age', true)}
          {error('age')}
          <input id={inputId('age')} name="age" type="text" inputMode="numeric" autoComplete="off" required maxLength={3} defaultValue={values.age} aria-invalid={invalid('age')} aria-describedby={describedBy('age')} />
        </div>
        <div className={`form-field${problems.annualContribution ? ' has-error' : ''}`}>
          {label('annualContribution', true)}
          {hint('annualContribution')}
          {error('annualContribution')}
          <div className="money-input">
            <span aria-hidden="true">$</span>
            <input id={inputId('annualContribution')} name="annualContribution" type="text" inputMode="decimal" autoComplete="off" required maxLength={16} defaultValue={values.annualContribution} aria-invalid={invalid('annualContribution')} aria-describedby={describedBy('annualContribution')} />
          </div>
        </div>
      </div>

      <details className="quote-more" open={['retirementAge', 'currentRetirementSavings', 'healthRating', 'tobaccoUser', 'additionalNotes'].some((field) => values[field as QuoteField] || problems[field as QuoteField]) || undefined}>
        <summary>{copy.moreLegend}</summary>
        <p className="field-hint">{copy.moreIntro}</p>
        <div className="form-row">
          <div className={`form-field form-field-short${problems.retirementAge ? ' has-error' : ''}`}>
            {label('retirementAge', false)}
            {error('retirementAge')}
            <input id={inputId('retirementAge')} name="retirementAge" type="text" inputMode="numeric" autoComplete="off" maxLength={3} defaultValue={values.retirementAge} aria-invalid={invalid('retirementAge')} aria-describedby={describedBy('retirementAge')} />
          </div>
          <div className={`form-field${problems.currentRetirementSavings ? ' has-error' : ''}`}>
            {label('currentRetirementSavings', false)}
            {hint('currentRetirementSavings')}
            {error('currentRetirementSavings')}
            <div className="money-input">
              <span aria-hidden="true">$</span>
              <input id={inputId('currentRetirementSavings')} name="currentRetirementSavings" type="text" inputMode="decimal" autoComplete="off" maxLength={16} defaultValue={values.currentRetirementSavings} aria-invalid={invalid('currentRetirementSavings')} aria-describedby={describedBy('currentRetirementSavings')} />
            </div>
          </div>
        </div>
        <div className="form-row">
          <div className={`form-field${problems.healthRating ? ' has-error' : ''}`}>
            {label('healthRating', false)}
            {hint('healthRating')}
            {error('healthRating')}
            <select id={inputId('healthRating')} name="healthRating" defaultValue={values.healthRating ?? ''} aria-invalid={invalid('healthRating')} aria-describedby={describedBy('healthRating')}>
              <option value="">{copy.ratingPlaceholder}</option>
              {HEALTH_RATINGS.map((rating) => (
                <option key={rating} value={rating}>
                  {HEALTH_RATING_LABELS[rating]}
                </option>
              ))}
            </select>
          </div>
          <div className={`form-field${problems.tobaccoUser ? ' has-error' : ''}`}>
            {label('tobaccoUser', false)}
            {error('tobaccoUser')}
            <select id={inputId('tobaccoUser')} name="tobaccoUser" defaultValue={values.tobaccoUser ?? ''} aria-invalid={invalid('tobaccoUser')} aria-describedby={describedBy('tobaccoUser')}>
              <option value="">{copy.tobaccoOptions.unset}</option>
              <option value="no">{copy.tobaccoOptions.no}</option>
              <option value="yes">{copy.tobaccoOptions.yes}</option>
            </select>
          </div>
        </div>
        <div className={`form-field${problems.additionalNotes ? ' has-error' : ''}`}>
          {label('additionalNotes', false)}
          {hint('additionalNotes')}
          {error('additionalNotes')}
          <textarea id={inputId('additionalNotes')} name="additionalNotes" rows={4} maxLength={QUOTE_LIMITS.additionalNotes} defaultValue={values.additionalNotes} aria-invalid={invalid('additionalNotes')} aria-describedby={describedBy('additionalNotes')} />
        </div>
      </details>

      <div className="form-field quote-consent">
        <input id="quote-consent" type="checkbox" name={QUOTE_FORM_CONTROLS.consent} value="yes" defaultChecked={result?.consent ?? false} aria-describedby="quote-consent-note" />
        <label htmlFor="quote-consent">{copy.consent}</label>
        <p id="quote-consent-note" className="field-hint">
          {copy.consentNote}
        </p>
      </div>

      <button type="submit" className="button button-primary quote-submit" disabled={sending}>
        {sending ? copy.sending : copy.submit}
      </button>
      <p className="quote-request-privacy">
        {copy.privacy} <Link to="/legal/privacy-policy#quote-requests">Read how we handle your request</Link>.
      </p>
    </Form>
  );
}
