import { CenteredPage } from '@/components/ui/CenteredPage';
import { PageHead } from '@/components/ui/PageHead';
import { ErrorView } from './ErrorView';

/** Error page 404 of spec section 2.3: page missing or in development, with back to home. */
export function NotFound() {
  return (
    <CenteredPage>
      <PageHead route="notFound" />
      <ErrorView status={404} />
    </CenteredPage>
  );
}
