import { redirect } from 'next/navigation';

// The dashboard starts at the agent's properties; the proxy already sent visitors without a
// session to sign-in.
export default function HomePage(): never {
  redirect('/properties');
}
