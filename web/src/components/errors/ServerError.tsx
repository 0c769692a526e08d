import { CenteredPage } from '@/components/ui/CenteredPage';
import { PageHead } from '@/components/ui/PageHead';
import { ErrorView } from './ErrorView';

/** Error page 500 of spec section 2.3 (outside the shell). */
export function ServerError() {
  return (
    <CenteredPage>
      <PageHead route="serverError" />
      <ErrorView status={500} />
    </CenteredPage>
  );
}
