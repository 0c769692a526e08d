import { post, put } from './client';
import { readKey } from './read';
import type { Page } from '@/components/ui/table';

/** The public help centre (spec 2.1: help.center, mobile.help.*): the site's published articles in the request's language. */
export interface HelpArticleTitle {
  articleId: number;
  title: string;
}

export interface HelpCenterCategory {
  categoryId: number;
  name: string;
  articles: HelpArticleTitle[];
}

export interface HelpArticleSummary extends HelpArticleTitle {
  categoryId: number;
  categoryName: string;
  summary: string;
}

/** content is HTML sanitised by the api (nh3) when it was written. */
export interface HelpArticleRead extends HelpArticleTitle {
  content: string;
  categoryId: number;
  categoryName: string;
  gmtModified: string;
}

export interface HelpSearchArgs {
  start: number;
  pageSize: number;
  keyword?: string;
  categoryId?: number;
}

export const helpCenterKey = () => readKey('/base/BaseHelp/center');
export const helpSearchKey = (args: HelpSearchArgs) => readKey('/base/BaseHelp/search', args, 'post');
export const helpArticleKey = (articleId: number) => readKey(`/base/BaseHelp/article/${articleId}`);

/** Management (help.list): categories and articles of this site, published or not. */
export type HelpLanguage = 'zh-CN' | 'en-US';
export const HELP_LANGUAGES: HelpLanguage[] = ['zh-CN', 'en-US'];

export interface ManagedHelpCategory {
  categoryId: number;
  name: string;
  language: HelpLanguage;
  sortOrder: number;
  published: boolean;
  articleCount: number;
  gmtModified: string;
}

export interface ManagedHelpArticle {
  articleId: number;
  categoryId: number;
  categoryName: string;
  language: HelpLanguage;
  title: string;
  content: string;
  sortOrder: number;
  published: boolean;
  gmtCreate: string;
  gmtModified: string;
}

export type HelpCategoryInput = Partial<Pick<ManagedHelpCategory, 'name' | 'language' | 'sortOrder' | 'published'>>;
export type HelpArticleInput = Partial<
  Pick<ManagedHelpArticle, 'categoryId' | 'title' | 'content' | 'sortOrder' | 'published'>
>;

export const helpCategoriesKey = (language?: HelpLanguage) =>
  readKey('/base/BaseHelpCategory/list', { language }, 'post');
export const helpArticlePageKey = (args: {
  start: number;
  pageSize: number;
  language?: HelpLanguage;
  categoryId?: number;
  keyword?: string;
}) => readKey('/base/BaseHelpArticle/queryPage', args, 'post');
export const insertHelpCategory = (input: HelpCategoryInput) =>
  post<ManagedHelpCategory>('/base/BaseHelpCategory/insert', input);
export const updateHelpCategory = (categoryId: number, input: HelpCategoryInput) =>
  put<ManagedHelpCategory>('/base/BaseHelpCategory/update', { categoryId, ...input });
export const deleteHelpCategory = (categoryId: number) => post<null>('/base/BaseHelpCategory/delete', { categoryId });
export const insertHelpArticle = (input: HelpArticleInput) =>
  post<ManagedHelpArticle>('/base/BaseHelpArticle/insert', input);
export const updateHelpArticle = (articleId: number, input: HelpArticleInput) =>
  put<ManagedHelpArticle>('/base/BaseHelpArticle/update', { articleId, ...input });
export const deleteHelpArticle = (articleId: number) => post<null>('/base/BaseHelpArticle/delete', { articleId });

export type HelpPage = Page<HelpArticleSummary>;

export function uploadHelpImage(file: File): Promise<{ name: string; url: string }> {
  const data = new FormData();
  data.append('file', file);
  return post('/base/BaseHelpArticle/uploadImage', data);
}
