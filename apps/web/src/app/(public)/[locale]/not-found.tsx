import { NotFoundMessage } from '@/components/not-found-message';

// A listing that does not exist, inside the public header.
export default function PublicNotFound() {
  return <NotFoundMessage />;
}
