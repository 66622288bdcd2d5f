import Link from 'next/link';

export default function NotFound() {
  return (
    <main id="main" className="page">
      <h1>Page not found</h1>
      <p>The page or listing you are looking for does not exist, or it is not public.</p>
      <p>
        <Link href="/search">Search listings</Link>
      </p>
    </main>
  );
}
