import { NotFoundMessage } from '@/components/not-found-message';

export default function NotFound() {
  return (
    <main id="main" className="page">
      <NotFoundMessage />
    </main>
  );
}
