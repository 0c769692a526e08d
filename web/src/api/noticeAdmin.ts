import { post, put } from './client';
import { readKey } from './read';
import type { Page } from '@/components/ui/table';

/** A notice as announcement management (/notice/list) edits it. noticeContent is HTML sanitised by the api (nh3). */
export interface ManagedNotice {
  noticeId: number;
  noticeTitle: string;
  noticeContent: string;
  noticeType: number;
  noticePlatform: number;
  noticeCamp: number;
  enabled: boolean;
  gmtCreate: string;
  gmtModified: string;
}

export type NoticeInput = Partial<Omit<ManagedNotice, 'noticeId' | 'gmtCreate' | 'gmtModified'>>;

export const noticePageKey = (args: { start: number; pageSize: number; noticeTitle?: string }) =>
  readKey('/base/BaseNotice/queryNoticePage', args, 'post');
export const noticePage = (args: { start: number; pageSize: number; noticeTitle?: string }) =>
  post<Page<ManagedNotice>>('/base/BaseNotice/queryNoticePage', args);
export const insertNotice = (input: NoticeInput) => post<ManagedNotice>('/base/BaseNotice/insert', input);
export const updateNotice = (noticeId: number, input: NoticeInput) =>
  put<ManagedNotice>('/base/BaseNotice/updateWithNotEmptyFiled', { noticeId, ...input });
