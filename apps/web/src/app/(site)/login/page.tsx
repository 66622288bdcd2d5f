import { redirect } from 'next/navigation';
import { safeNextPath } from '@staging/domain/safe-next-path';

// /login is where people (and password managers) look first; the sign-in page lives at /sign-in.
export default async function LoginPage({ searchParams }: PageProps<'/login'>): Promise<never> {
  const next = (await searchParams).next;
  redirect(typeof next === 'string' ? `/sign-in?next=${encodeURIComponent(safeNextPath(next))}` : '/sign-in');
}
