import { AlarmRuleView } from '@/components/product/RuleViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <AlarmRuleView ruleClass="warning" />;
}
