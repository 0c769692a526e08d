import { readKey } from './read';
import type { Schemas } from './generated';

/** A site notice shown after sign-in (spec section 3). noticeContent is HTML sanitised by the api. */
export interface Notice {
  noticeId: number;
  noticeTitle: string;
  noticeContent: string;
}

export type NoticeQuery = Schemas['NoticeQuery'];

/** Spec 7.2: noticePlatform 1, noticeType 1, noticeCamp 1 on the default-campaign site, else 0. */
export function noticeQueryFor(defaultCamp: boolean | undefined): NoticeQuery {
  return { noticePlatform: 1, noticeType: 1, noticeCamp: defaultCamp ? 1 : 0 };
}

/** POST /base/BaseNotice/queryNotice: the notices a signed-in user of this site should see. */
export const queryNoticeKey = (query: NoticeQuery) => readKey('/base/BaseNotice/queryNotice', query, 'post');
