import { ErrorView } from '@/components/errors/ErrorView';
import { useSession } from '@/lib/SessionContext';

/** A console route whose business area is not built yet: the 404 "page missing or in development". */
export function InDevelopment() {
  const { access } = useSession();
  return <ErrorView status={404} home={access?.landing ?? '/'} />;
}
