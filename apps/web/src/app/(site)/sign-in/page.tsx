import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { safeNextPath } from '@staging/domain/safe-next-path';
import { LocaleSwitcher } from '@/components/locale-switcher';
import { getCurrentUser } from '@/server/session';
import { AlertMessage } from '@/components/alert-message';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('signIn'))('title') };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function SignInPage({ searchParams }: PageProps<'/sign-in'>) {
  const query = await searchParams;
  const next = safeNextPath(first(query.next));
  if ((await getCurrentUser()) !== null) redirect(next);
  const t = await getTranslations('signIn');
  const errorKey = first(query.error);
  const retryMinutes = Math.max(1, Math.ceil(Number(first(query.retryAfter) ?? '60') / 60) || 1);
  const errors: Record<string, string> = {
    invalid: t('invalid'),
    throttled: t('throttled', { minutes: retryMinutes }),
  };
  const error = errorKey === undefined ? undefined : (errors[errorKey] ?? t('unavailable'));
  return (
    <main id="main" className="auth-page">
      <form className="card auth-card" method="post" action="/auth/sign-in" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <AlertMessage message={error} tone="page" id="sign-in-error" />
        <input type="hidden" name="next" value={next} />
        <div className="field">
          <label htmlFor="email">{t('email')}</label>
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
          <label htmlFor="password">{t('password')}</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        <button type="submit" className="button button-primary button-block">
          {t('submit')}
        </button>
      </form>
      <LocaleSwitcher />
    </main>
  );
}
