import { ArrowLeftOutlined, RightOutlined } from '@ant-design/icons';
import { Card, Empty, Input, List, Menu, Pagination, Result, Skeleton, Space, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import {
  helpArticleKey,
  helpCenterKey,
  helpSearchKey,
  type HelpArticleRead,
  type HelpCenterCategory,
  type HelpPage,
} from '@/api/help';
import { formatTime } from '@/lib/format';
import { useSiteBranding } from '@/lib/SiteContext';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { useRead } from '@/hooks/useRead';

const SEARCH_PAGE_SIZE = 10;

const Shell = styled.main<{ $mobile: boolean }>`
  max-width: ${({ $mobile }) => ($mobile ? '640px' : '1200px')};
  min-height: 100vh;
  margin: 0 auto;
  padding: ${({ $mobile }) => ($mobile ? '12px' : '24px 16px')};
  box-sizing: border-box;
`;

const Columns = styled.div`
  display: grid;
  grid-template-columns: 280px minmax(0, 1fr);
  gap: 16px;
  align-items: start;
`;

/** Article bodies: sanitised HTML from the api; images and tables never widen the page. */
const Body = styled.article`
  line-height: 1.75;
  overflow-wrap: anywhere;
  color: ${({ theme }) => theme.colors.text};

  img,
  video {
    max-width: 100%;
    height: auto;
  }

  table {
    display: block;
    max-width: 100%;
    overflow-x: auto;
  }

  h2,
  h3 {
    margin-top: 1.2em;
  }
`;

function firstOf(value: string | string[] | undefined): string {
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
}

function idOf(value: string | string[] | undefined): number | null {
  const raw = firstOf(value);
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

function TopBar({
  mobile,
  keyword,
  onSearch,
}: {
  mobile: boolean;
  keyword: string;
  onSearch: (keyword: string) => void;
}) {
  const { t } = useTranslation('help');
  const branding = useSiteBranding();
  const [text, setText] = useState(keyword);
  return (
    <Space direction="vertical" size={12} style={{ width: '100%', marginBottom: 16 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={mobile ? 4 : 3} style={{ margin: 0 }}>
          {branding?.title ? `${branding.title} · ` : ''}
          {t('title')}
        </Typography.Title>
        <Space>
          <LanguageSwitch compact={mobile} />
          <Link href="/home">{t('console')}</Link>
        </Space>
      </Space>
      <Input.Search
        allowClear
        enterButton
        maxLength={50}
        value={text}
        placeholder={t('searchPlaceholder')}
        onChange={(event) => setText(event.target.value)}
        onSearch={(value) => onSearch(value.trim())}
        data-testid="help-search"
        aria-label={t('searchPlaceholder')}
      />
    </Space>
  );
}

function SearchResults({ keyword, onOpen }: { keyword: string; onOpen: (articleId: number) => void }) {
  const { t } = useTranslation('help');
  const [page, setPage] = useState(1);
  const { data, isLoading } = useRead<HelpPage>(helpSearchKey({ keyword, start: page, pageSize: SEARCH_PAGE_SIZE }));
  if (isLoading && !data) return <Skeleton active />;
  return (
    <div data-testid="help-results">
      <Typography.Paragraph type="secondary">
        {t('resultsFor', { keyword, count: data?.total ?? 0 })}
      </Typography.Paragraph>
      <List
        dataSource={data?.list ?? []}
        locale={{ emptyText: <Empty description={t('noResults')} /> }}
        renderItem={(item) => (
          <List.Item
            key={item.articleId}
            onClick={() => onOpen(item.articleId)}
            style={{ cursor: 'pointer' }}
            data-testid="help-result"
          >
            <List.Item.Meta title={<a>{item.title}</a>} description={`${item.categoryName} · ${item.summary}`} />
          </List.Item>
        )}
      />
      {(data?.total ?? 0) > SEARCH_PAGE_SIZE ? (
        <Pagination
          simple
          current={page}
          pageSize={SEARCH_PAGE_SIZE}
          total={data?.total ?? 0}
          onChange={setPage}
          style={{ marginTop: 12 }}
        />
      ) : null}
    </div>
  );
}

function ArticleView({ articleId }: { articleId: number }) {
  const { t } = useTranslation('help');
  const { data, error, isLoading } = useRead<HelpArticleRead>(helpArticleKey(articleId));
  if (isLoading) return <Skeleton active />;
  if (error || !data) return <Result status="404" title={t('missing')} />;
  return (
    <div data-testid="help-article">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {data.title}
      </Typography.Title>
      <Typography.Text type="secondary">
        {data.categoryName} · {t('updated', { time: formatTime(data.gmtModified, 'YYYY-MM-DD') })}
      </Typography.Text>
      {/* The api sanitised this HTML with nh3 when it was written: no scripts, handlers or javascript: links. */}
      <Body className="help-content" dangerouslySetInnerHTML={{ __html: data.content }} />
    </div>
  );
}

function useHelpQuery(basePath: string) {
  const router = useRouter();
  const keyword = firstOf(router.query.keyword);
  const articleId = idOf(router.query.id);
  const go = (query: Record<string, string>) =>
    void router.push({ pathname: basePath, query }, undefined, { shallow: true });
  return { router, keyword, articleId, go };
}

/** /help/center: categories and their articles on the left, the article (or search results) on the right. */
export function HelpCenterDesktop() {
  const { t } = useTranslation('help');
  const { keyword, articleId, go } = useHelpQuery('/help/center');
  const { data: categories, isLoading } = useRead<HelpCenterCategory[]>(helpCenterKey());
  const shown = articleId ?? categories?.[0]?.articles[0]?.articleId ?? null;
  const items = useMemo(
    () =>
      (categories ?? []).map((category) => ({
        key: `c${category.categoryId}`,
        label: category.name,
        type: 'group' as const,
        children: category.articles.map((article) => ({ key: String(article.articleId), label: article.title })),
      })),
    [categories],
  );
  return (
    <Shell $mobile={false} data-testid="help-center">
      <PageHead route="helpCenter" />
      <TopBar mobile={false} keyword={keyword} onSearch={(value) => go(value ? { keyword: value } : {})} />
      <Columns>
        <Card size="small" styles={{ body: { padding: 4 } }}>
          {isLoading ? (
            <Skeleton active />
          ) : (
            <Menu
              mode="inline"
              items={items}
              selectedKeys={shown && !keyword ? [String(shown)] : []}
              onClick={({ key }) => go({ id: key })}
              style={{ borderInlineEnd: 0 }}
              data-testid="help-menu"
            />
          )}
        </Card>
        <Card>
          {keyword ? (
            <SearchResults key={keyword} keyword={keyword} onOpen={(id) => go({ id: String(id) })} />
          ) : shown ? (
            <ArticleView articleId={shown} />
          ) : isLoading ? (
            <Skeleton active />
          ) : (
            <Empty description={t('empty')} />
          )}
        </Card>
      </Columns>
    </Shell>
  );
}

/** /mobile/help/list: search and the categories with their articles, each opening /mobile/help/center. */
export function HelpListMobile() {
  const { t } = useTranslation('help');
  const { router, keyword, go } = useHelpQuery('/mobile/help/list');
  const { data: categories, isLoading } = useRead<HelpCenterCategory[]>(helpCenterKey());
  const open = (articleId: number) =>
    void router.push({ pathname: '/mobile/help/center', query: { id: String(articleId) } });
  return (
    <Shell $mobile data-testid="help-list">
      <PageHead route="helpCenter" />
      <TopBar mobile keyword={keyword} onSearch={(value) => go(value ? { keyword: value } : {})} />
      {keyword ? (
        <SearchResults key={keyword} keyword={keyword} onOpen={open} />
      ) : isLoading ? (
        <Skeleton active />
      ) : (categories ?? []).length === 0 ? (
        <Empty description={t('empty')} />
      ) : (
        (categories ?? []).map((category) => (
          <Card
            key={category.categoryId}
            size="small"
            title={category.name}
            style={{ marginBottom: 12 }}
            styles={{ body: { padding: '0 12px' } }}
          >
            <List
              dataSource={category.articles}
              renderItem={(article) => (
                <List.Item
                  key={article.articleId}
                  onClick={() => open(article.articleId)}
                  style={{ cursor: 'pointer' }}
                  extra={<RightOutlined />}
                  data-testid="help-list-item"
                >
                  {article.title}
                </List.Item>
              )}
            />
          </Card>
        ))
      )}
    </Shell>
  );
}

/** /mobile/help/center?id=: one article on a phone, with the way back to the list. */
export function HelpArticleMobile() {
  const { t } = useTranslation('help');
  const { articleId } = useHelpQuery('/mobile/help/center');
  return (
    <Shell $mobile data-testid="help-mobile-article">
      <PageHead route="helpCenter" />
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Link href="/mobile/help/list">
          <ArrowLeftOutlined /> {t('back')}
        </Link>
        <LanguageSwitch compact />
      </Space>
      {articleId ? <ArticleView articleId={articleId} /> : <Result status="404" title={t('missing')} />}
    </Shell>
  );
}
