/** Next Steps: three steps from consultation to implementation, and the button to /get-quote. */
import { Link } from 'react-router';
import { NEXT_STEPS } from '../../content/guide/closing';
import { GuideCards, GuideSection } from './GuideSection';

export function NextStepsSection() {
  return (
    <GuideSection id={NEXT_STEPS.id} title={NEXT_STEPS.title} intro={[NEXT_STEPS.intro]}>
      <GuideCards cards={NEXT_STEPS.steps} numbered testId="next-steps-list" />
      <div className="button-row">
        <Link to="/get-quote" className="button button-primary" data-testid="next-steps-button">
          {NEXT_STEPS.buttonLabel}
        </Link>
      </div>
    </GuideSection>
  );
}
