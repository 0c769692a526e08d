import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { LANGUAGES, resolveLanguage, switchLanguage } from '@/i18n/languages';

/** zh-CN / English switch; the choice is stored and the page reloads in it (spec section 1). */
export function LanguageSwitch({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { t, i18n } = useTranslation('common');
  const current = resolveLanguage(i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((language) => ({ key: language, label: t(`language.${language}`) })),
        onClick: ({ key }) => {
          if (key !== current) switchLanguage(resolveLanguage(key));
        },
      }}
    >
      <Button type="text" className={className} icon={<GlobalOutlined />} aria-label={t('language.switch')}>
        {compact ? null : t(`language.${current}`)}
      </Button>
    </Dropdown>
  );
}
