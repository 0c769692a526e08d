import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Input, Select, Space, Tag, Typography, Upload } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  deleteHelpArticle,
  deleteHelpCategory,
  HELP_LANGUAGES,
  helpArticlePageKey,
  helpCategoriesKey,
  insertHelpArticle,
  insertHelpCategory,
  updateHelpArticle,
  updateHelpCategory,
  uploadHelpImage,
  type HelpLanguage,
  type ManagedHelpArticle,
  type ManagedHelpCategory,
} from '@/api/help';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, Toolbar } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';

const ROUTE = 'help.list';

type CategoryValues = { name: string; language: HelpLanguage; sortOrder: number; published: boolean };
type ArticleValues = { categoryId: number; title: string; content: string; sortOrder: number; published: boolean };

/** The help centre's management (help.list): this site's categories and articles per language. */
export function HelpAdminView() {
  const { t } = useTranslation('help');
  const { message } = App.useApp();
  const [language, setLanguage] = useState<HelpLanguage | undefined>();
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const [editingCategory, setEditingCategory] = useState<{ category: ManagedHelpCategory | null } | null>(null);
  const [editingArticle, setEditingArticle] = useState<{ article: ManagedHelpArticle | null } | null>(null);
  const categories = useRead<ManagedHelpCategory[]>(helpCategoriesKey());
  const articles = usePagedQuery<
    ManagedHelpArticle,
    { language?: HelpLanguage; categoryId?: number; keyword?: string }
  >(helpArticlePageKey, {
    language,
    categoryId,
    keyword: keyword || undefined,
  });
  const refresh = () => Promise.all([categories.mutate(), articles.mutate()]);
  const languageLabel = (value: HelpLanguage) => t(`admin.languages.${value}`);
  const categoryOptions = (categories.data ?? [])
    .filter((c) => !language || c.language === language)
    .map((c) => ({ value: c.categoryId, label: `${c.name} (${languageLabel(c.language)})` }));
  const required = { required: true, message: t('admin.required') };

  const category = editingCategory?.category ?? null;
  const categoryFields: DrawerField[] = [
    { type: 'input', name: 'name', label: t('admin.name'), maxLength: 50, rules: [required] },
    {
      type: 'radio',
      name: 'language',
      label: t('admin.language'),
      disabled: Boolean(category),
      options: HELP_LANGUAGES.map((value) => ({ value, label: languageLabel(value) })),
    },
    { type: 'number', name: 'sortOrder', label: t('admin.sortOrder'), min: 0, max: 9999, precision: 0 },
    { type: 'switch', name: 'published', label: t('admin.published') },
  ];
  const article = editingArticle?.article ?? null;
  const articleFields: DrawerField[] = [
    { type: 'select', name: 'categoryId', label: t('admin.category'), options: categoryOptions, rules: [required] },
    { type: 'input', name: 'title', label: t('admin.articleTitle'), maxLength: 100, rules: [required] },
    {
      type: 'input',
      name: 'content',
      label: t('admin.content'),
      textarea: true,
      maxLength: 50000,
      rules: [required],
      extra: t('admin.contentHint'),
    },
    {
      type: 'slot',
      name: 'image',
      render: (form) => (
        <Upload
          accept="image/png,image/jpeg"
          showUploadList={false}
          customRequest={({ file, onSuccess, onError }) => {
            uploadHelpImage(file as File)
              .then((stored) => {
                const content = String(form.getFieldValue('content') ?? '');
                form.setFieldValue('content', `${content}\n<p><img src="${stored.url}" alt=""></p>`);
                void message.success(t('admin.imageUploaded'));
                onSuccess?.(stored);
              })
              .catch((error: Error) => onError?.(error));
          }}
        >
          <Button icon={<UploadOutlined />}>{t('admin.uploadImage')}</Button>
        </Upload>
      ),
    },
    { type: 'number', name: 'sortOrder', label: t('admin.sortOrder'), min: 0, max: 9999, precision: 0 },
    { type: 'switch', name: 'published', label: t('admin.published') },
  ];

  return (
    <div data-testid="help-admin">
      <Typography.Title level={5}>{t('admin.categories')}</Typography.Title>
      <DataList<ManagedHelpCategory>
        rowKey="categoryId"
        data={(categories.data ?? []).filter((c) => !language || c.language === language)}
        loading={categories.isLoading}
        pagination={false}
        testId="help-categories"
        filters={
          <Select
            allowClear
            placeholder={t('admin.allLanguages')}
            value={language}
            onChange={(value?: HelpLanguage) => {
              setLanguage(value);
              setCategoryId(undefined);
            }}
            options={HELP_LANGUAGES.map((value) => ({ value, label: languageLabel(value) }))}
            style={{ width: 160 }}
          />
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button onClick={() => setEditingCategory({ category: null })} data-testid="help-category-add">
              {t('admin.addCategory')}
            </Button>
          </Permitted>
        }
        columns={[
          { key: 'name', title: t('admin.name'), dataIndex: 'name', card: 'title' },
          { key: 'language', title: t('admin.language'), render: (_, c) => languageLabel(c.language) },
          { key: 'order', title: t('admin.sortOrder'), dataIndex: 'sortOrder' },
          { key: 'count', title: t('admin.articleCount'), dataIndex: 'articleCount' },
          {
            key: 'state',
            title: t('admin.published'),
            important: true,
            render: (_, c) =>
              c.published ? <Tag color="green">{t('admin.published')}</Tag> : <Tag>{t('admin.draft')}</Tag>,
          },
          {
            key: 'actions',
            title: t('admin.actions'),
            important: true,
            render: (_, c) => (
              <Space size={0}>
                <Permitted route={ROUTE} action="edit">
                  <Button type="link" size="small" onClick={() => setEditingCategory({ category: c })}>
                    {t('admin.edit')}
                  </Button>
                </Permitted>
                <ConfirmAction
                  route={ROUTE}
                  action="delete"
                  title={t('admin.deleteCategory', { name: c.name })}
                  onConfirm={() => deleteHelpCategory(c.categoryId).then(refresh)}
                >
                  {t('admin.delete')}
                </ConfirmAction>
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('admin.articles')}
      </Typography.Title>
      <DataList<ManagedHelpArticle>
        rowKey="articleId"
        data={articles.data}
        loading={articles.loading}
        pagination={articles.pagination}
        testId="help-articles"
        filters={
          <Toolbar style={{ marginBottom: 0 }}>
            <Select
              allowClear
              placeholder={t('admin.allCategories')}
              value={categoryId}
              onChange={(value?: number) => setCategoryId(value)}
              options={categoryOptions}
              style={{ width: 220 }}
            />
            <Input
              allowClear
              placeholder={t('admin.keyword')}
              value={keyword}
              maxLength={50}
              onChange={(event) => setKeyword(event.target.value)}
              style={{ width: 200 }}
            />
          </Toolbar>
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button
              type="primary"
              onClick={() => setEditingArticle({ article: null })}
              disabled={categoryOptions.length === 0}
              data-testid="help-article-add"
            >
              {t('admin.addArticle')}
            </Button>
          </Permitted>
        }
        columns={[
          { key: 'title', title: t('admin.articleTitle'), dataIndex: 'title', long: 240, card: 'title' },
          { key: 'category', title: t('admin.category'), dataIndex: 'categoryName' },
          {
            key: 'language',
            title: t('admin.language'),
            render: (_, a) => languageLabel(a.language),
            desktopOnly: true,
          },
          { key: 'order', title: t('admin.sortOrder'), dataIndex: 'sortOrder', desktopOnly: true },
          {
            key: 'state',
            title: t('admin.published'),
            important: true,
            render: (_, a) =>
              a.published ? <Tag color="green">{t('admin.published')}</Tag> : <Tag>{t('admin.draft')}</Tag>,
          },
          { key: 'modified', title: t('admin.modified'), important: true, render: (_, a) => formatTime(a.gmtModified) },
          {
            key: 'actions',
            title: t('admin.actions'),
            important: true,
            render: (_, a) => (
              <Space size={0}>
                <Permitted route={ROUTE} action="edit">
                  <Button type="link" size="small" onClick={() => setEditingArticle({ article: a })}>
                    {t('admin.edit')}
                  </Button>
                </Permitted>
                <ConfirmAction
                  route={ROUTE}
                  action="delete"
                  title={t('admin.deleteArticle', { name: a.title })}
                  onConfirm={() => deleteHelpArticle(a.articleId).then(refresh)}
                >
                  {t('admin.delete')}
                </ConfirmAction>
                {a.published ? (
                  <Button
                    type="link"
                    size="small"
                    href={`/help/center?id=${a.articleId}`}
                    target="_blank"
                    rel="noopener"
                  >
                    {t('admin.preview')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <DrawerForm<CategoryValues>
        key={`category-${category?.categoryId ?? 'new'}`}
        open={Boolean(editingCategory)}
        title={category ? t('admin.editCategory') : t('admin.addCategory')}
        fields={categoryFields}
        initialValues={
          category
            ? {
                name: category.name,
                language: category.language,
                sortOrder: category.sortOrder,
                published: category.published,
              }
            : { language: language ?? 'zh-CN', sortOrder: 0, published: true }
        }
        onClose={() => setEditingCategory(null)}
        onSubmit={async (values) => {
          if (category)
            await updateHelpCategory(category.categoryId, {
              name: values.name,
              sortOrder: values.sortOrder,
              published: values.published,
            });
          else await insertHelpCategory(values);
          await refresh();
        }}
      />
      <DrawerForm<ArticleValues>
        key={`article-${article?.articleId ?? 'new'}`}
        open={Boolean(editingArticle)}
        title={article ? t('admin.editArticle') : t('admin.addArticle')}
        fields={articleFields}
        width={720}
        initialValues={
          article
            ? {
                categoryId: article.categoryId,
                title: article.title,
                content: article.content,
                sortOrder: article.sortOrder,
                published: article.published,
              }
            : { categoryId: categoryId ?? categoryOptions[0]?.value, sortOrder: 0, published: false }
        }
        onClose={() => setEditingArticle(null)}
        onSubmit={async (values) => {
          if (article) await updateHelpArticle(article.articleId, values);
          else await insertHelpArticle(values);
          await refresh();
        }}
      />
    </div>
  );
}
