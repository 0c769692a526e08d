import { CenteredPage } from '@/components/ui/CenteredPage';
import { PageHead } from '@/components/ui/PageHead';
import { ErrorView, type ErrorStatus } from './ErrorView';

const ROUTE: Record<ErrorStatus, string> = { 403: 'notFound', 404: 'notFound', 500: 'serverError' };

/**
 * The one error page of spec 2.3 outside the shell (404 page missing or in development, 500 server
 * error), with back to home; inside the shell the same ErrorView is shown.
 */
export function ErrorPage({ status }: { status: ErrorStatus }) {
  return (
    <CenteredPage>
      <PageHead route={ROUTE[status]} />
      <ErrorView status={status} />
    </CenteredPage>
  );
}
