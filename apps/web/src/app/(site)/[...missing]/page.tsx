import { notFound } from 'next/navigation';

// With two root layouts there is no app-wide not-found page: an address that matches no route
// lands here and gets the dashboard layout's 404, in the visitor's language.
export default function MissingPage(): never {
  notFound();
}
