import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { startClient } from './client/start-client';
import { startVitals } from './client/vitals';

startClient({
  document,
  storage: () => window.localStorage,
  logger: console,
  hydrate: () => {
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <HydratedRouter />
        </StrictMode>,
      );
    });
  },
});

startVitals({ window, document, path: location.pathname, random: Math.random, report: (path) => void import('./client/vitals-report').then((reporter) => reporter.reportVitals(path)).catch(() => undefined) });
