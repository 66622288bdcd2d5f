import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { safeNextPath } from '@/lib/safe-next-path';
import { getCurrentUser } from '@/server/session';

export const metadata: Metadata = { title: 'Sign in' };

const ERRORS: Record<string, string> = {
  invalid: 'That email and password do not match an account.',
  unavailable: 'Signing in is not possible right now. Please try again in a moment.',
};

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function SignInPage({ searchParams }: PageProps<'/sign-in'>) {
  const query = await searchParams;
  const next = safeNextPath(first(query.next));
  if ((await getCurrentUser()) !== null) redirect(next);
  const errorKey = first(query.error);
  const error = errorKey === undefined ? undefined : (ERRORS[errorKey] ?? ERRORS.unavailable);
  return (
    <main id="main" className="auth-page">
      <form className="card auth-card" method="post" action="/auth/sign-in" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in</h1>
        <p className="muted">Agents sign in to manage listings, staging and inventory.</p>
        {error !== undefined && (
          <p className="alert alert-error" role="alert" id="sign-in-error">
            {error}
          </p>
        )}
        <input type="hidden" name="next" value={next} />
        <div className="field">
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            defaultValue={first(query.email) ?? ''}
            aria-describedby={error === undefined ? undefined : 'sign-in-error'}
          />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        <button type="submit" className="button button-primary button-block">
          Sign in
        </button>
      </form>
    </main>
  );
}
