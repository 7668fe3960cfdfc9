/**
 * The quote form's checks, shared by the browser and the server: whatever a visitor (or a robot)
 * types, they answer with the typed request or one message per wrong field, never throw, never keep
 * control characters, and read amounts the ways people write them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGE_RANGE, checkQuoteRequest, parseDollars, phoneDigits, QUOTE_FIELDS, QUOTE_LIMITS, QUOTE_MESSAGES, quoteRequestSchema, type QuoteFormValues } from './quote-request';

const valid: QuoteFormValues = { name: 'Jane Carter', preferredContactMethod: 'phone', phone: '(512) 555-0199', age: '45', annualContribution: '12,000' };

describe('checkQuoteRequest', () => {
  it('takes the four short answers and types them; everything optional stays null', () => {
    expect(checkQuoteRequest(valid)).toEqual({
      ok: true,
      value: {
        name: 'Jane Carter',
        email: null,
        phone: '(512) 555-0199',
        preferredContactMethod: 'phone',
        age: 45,
        annualContribution: 12_000,
        retirementAge: null,
        currentRetirementSavings: null,
        healthRating: null,
        tobaccoUser: null,
        additionalNotes: null,
      },
    });
  });

  it('needs the contact detail of the chosen method, and only that one', () => {
    expect(checkQuoteRequest({ ...valid, phone: '' })).toEqual({ ok: false, problems: { phone: QUOTE_MESSAGES.phoneNeeded } });
    expect(checkQuoteRequest({ ...valid, preferredContactMethod: 'email' })).toEqual({ ok: false, problems: { email: QUOTE_MESSAGES.emailNeeded } });
    expect(checkQuoteRequest({ ...valid, preferredContactMethod: 'email', phone: '', email: 'jane@example.com' }).ok).toBe(true);
    expect(checkQuoteRequest({ ...valid, preferredContactMethod: 'fax' }).ok).toBe(false);
  });

  it('checks each optional answer only when given', () => {
    const problems = (values: QuoteFormValues) => {
      const result = checkQuoteRequest({ ...valid, ...values });
      return result.ok ? {} : result.problems;
    };
    expect(problems({ retirementAge: '40' })).toEqual({ retirementAge: QUOTE_MESSAGES.retirementAge });
    expect(problems({ retirementAge: '65' })).toEqual({});
    expect(problems({ currentRetirementSavings: 'lots' })).toEqual({ currentRetirementSavings: QUOTE_MESSAGES.savings });
    expect(problems({ healthRating: 'superb' })).toEqual({ healthRating: QUOTE_MESSAGES.healthRating });
    expect(problems({ tobaccoUser: 'maybe' })).toEqual({ tobaccoUser: QUOTE_MESSAGES.tobacco });
    expect(problems({ additionalNotes: 'x'.repeat(QUOTE_LIMITS.additionalNotes + 1) })).toEqual({ additionalNotes: QUOTE_MESSAGES.notesTooLong });
    expect(problems({ email: 'jane@' })).toEqual({ email: QUOTE_MESSAGES.emailInvalid });
    expect(problems({ phone: '555-0199' })).toEqual({ phone: QUOTE_MESSAGES.phoneInvalid });
  });

  it('never throws, and answers either a typed request or a message for named fields only', () => {
    const anyValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', ' 45 ', '12,000', 'email', 'phone', 'yes', 'no', 'good', 'jane@example.com', '512 555 0199'));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...QUOTE_FIELDS), anyValue), (values) => {
        const result = checkQuoteRequest(values);
        if (result.ok) {
          expect(result.value.age).toBeGreaterThanOrEqual(AGE_RANGE.min);
          expect(result.value.age).toBeLessThanOrEqual(AGE_RANGE.max);
          expect(result.value.name.length).toBeGreaterThan(0);
          for (const text of [result.value.name, result.value.email, result.value.phone, result.value.additionalNotes]) {
            // eslint-disable-next-line no-control-regex -- the control characters are what must not get through
            expect(text ?? '').not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/);
          }
          expect(result.value.preferredContactMethod === 'email' ? result.value.email : result.value.phone).not.toBeNull();
        } else {
          expect(Object.keys(result.problems).length).toBeGreaterThan(0);
          for (const [field, message] of Object.entries(result.problems)) {
            expect(QUOTE_FIELDS).toContain(field);
            expect(Object.values(QUOTE_MESSAGES)).toContain(message);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is the zod schema the browser and the server both run, with the field in each issue path', () => {
    expect(quoteRequestSchema.parse(valid).annualContribution).toBe(12_000);
    const parsed = quoteRequestSchema.safeParse({ ...valid, age: '9' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['age', QUOTE_MESSAGES.ageRange]]);
  });
});

describe('parseDollars and phoneDigits', () => {
  it('read an amount however it is written, and nothing that is not one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (amount) => {
        expect(parseDollars(String(amount))).toBe(amount);
        expect(parseDollars(`$${amount.toLocaleString('en-US')}`)).toBe(amount);
        expect(parseDollars(`${amount}.00`)).toBe(amount);
      }),
    );
    for (const text of ['', 'ten', '12k', '-500', '1e5', '$', '12.345']) expect(parseDollars(text)).toBeNaN();
  });

  it('take 10-digit US numbers and international ones up to 15 digits', () => {
    expect(phoneDigits('(512) 555-0199')).toBe('5125550199');
    expect(phoneDigits('+44 20 7946 0958')).toBe('442079460958');
    expect(phoneDigits('555-0199')).toBeNull();
    expect(phoneDigits('call me')).toBeNull();
    expect(phoneDigits('1'.repeat(16))).toBeNull();
  });
});
