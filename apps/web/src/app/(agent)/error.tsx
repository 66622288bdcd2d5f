'use client';

// Shown when an agent page fails to render; the error itself went to the error tracker through
// instrumentation's onRequestError, so only a retry is offered here.
export default function AgentError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="stack">
      <h1>Something went wrong</h1>
      <p className="alert alert-error" role="alert">
        This page could not be shown. Please try again in a moment.
      </p>
      <div>
        <button type="button" className="button button-primary" onClick={reset}>
          Try again
        </button>
      </div>
    </div>
  );
}
